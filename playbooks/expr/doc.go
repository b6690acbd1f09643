// Package expr is tender's Jinja2 subset: the expressions of `when:` and the
// `{{ }}` templates of Ansible playbooks, evaluated with Python's semantics
// exactly where Ansible's behaviour depends on them ('12' >= '7' is false,
// '1' == 1 is false, an empty list is false, / is true division).
//
// Entry points:
//
//   - Condition evaluates a when:/changed_when:/failed_when: condition.
//   - Render (or ParseTemplate + Template.Render) renders a playbook value
//     as Ansible's Templar.template does, reading output that looks like a
//     list, a dict or a boolean back as data; RenderDeep renders every
//     string inside lists and dicts.
//   - ParseFileTemplate is for template files (the template module): the
//     output is always text.
//   - Parse + Expr.Eval evaluate a bare expression.
//   - RunLookup runs a lookup plugin for with_<lookup>: loops; RunLookupIn
//     also gives it variables (for vars and template).
//   - ParseFileTemplateAt parses a template file whose {% include %}s also
//     look in its own directory.
//
// Variables come from a Scope; Vars is the ready one: layered maps whose
// template-valued entries are rendered lazily when read, with reference
// cycles reported as *CycleError. Lookups read what they need from the
// controller through an Env. A Scope stored as a value (hostvars, each
// host's variables inside it) acts as a dict resolved lazily in its own
// scope. An undefined variable is an *UndefinedError
// naming it, except under `is defined`, `is undefined` and `default`.
//
// Values are the ones every tender package shares: nil (None), bool, int,
// *big.Int (an integer past 64 bits: Python's ints are exact, up to 4300
// digits), float64, string, []any and map[string]any, plus yaml11.Unsafe
// (a string that is never templated) and the Omit sentinel. As in Ansible,
// what a lookup returns is unsafe, and so is the whole result of a template
// that read an unsafe value or ran a lookup. Maps iterate in insertion
// order, as Python's dicts do, through internal/pydict;
// DIFFERENCES.md lists every deliberate difference from ansible-core.
//
// Templates have Jinja2 3.1's statements (if, for with loop.cycle,
// loop.changed and recursive loops, set and block set, macro, call,
// filter, with, include, import, from, print, raw) and globals (range,
// dict, lipsum, cycler, joiner, namespace) plus Ansible's (lookup, query,
// q, now, undef). docs/PLUGINS.md lists every filter, test, lookup, global
// and statement of ansible-core 2.14 and Jinja2 3.1 with what tender does:
// implemented, or refused with an error that says why; plugins_list.go is
// its source.
//
// The package has its own lexer, parser and tree-walking evaluator; it keeps
// no mutable global state and is safe for concurrent use: a parsed Expr or
// Template may be evaluated from many goroutines at once.
package expr
