// Package expr is tender's Jinja2 subset: the expressions of `when:` and the
// `{{ }}` templates of Ansible playbooks, evaluated with Python's semantics
// exactly where Ansible's behaviour depends on them.
//
// Values are the ones every tender package shares: nil (None), bool, int,
// float64, string, []any and map[string]any (plus yaml11.Unsafe, a string
// that is never templated, and the Omit sentinel). Maps are iterated in
// sorted key order, a documented deviation from Python's insertion order.
//
// The package has its own lexer, parser and tree-walking evaluator; it keeps
// no global state and is safe for concurrent use: a parsed Expr or Template
// may be evaluated from many goroutines at once.
package expr
