package playbooks

import (
	"errors"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/playbooks/expr"
)

// condKeys hold Jinja2 expressions (without {{ }}) rather than templates.
var condKeys = map[string]bool{"when": true, "changed_when": true, "failed_when": true, "until": true}

// checkConds parses each condition of a when-like keyword so a syntax
// error is a warning at load time, at the condition's line. A condition
// written as a template ("{{ x }}") is parsed as one, as Ansible accepts it.
func (l *loader) checkConds(file, key string, n *yaml.Node, conds []string) {
	nodes := []*yaml.Node{deref(n)}
	if nodes[0].Kind == yaml.SequenceNode {
		nodes = nodes[0].Content
	}
	for i, c := range conds {
		at := n
		if i < len(nodes) {
			at = deref(nodes[i])
		}
		if at.Tag == "!unsafe" {
			continue
		}
		var err error
		if isTemplate(c) {
			_, err = expr.ParseTemplate(c)
		} else {
			_, err = expr.Parse(c)
		}
		if err != nil {
			l.exprErr(file, at, c, key, err)
		}
	}
}

// checkTree parses every string under n that holds Jinja2 markup as a
// template, except !unsafe strings (never templated) and, in a mapping,
// the argument conds names, which holds conditions (expressions: assert's
// that).
func (l *loader) checkTree(file string, n *yaml.Node, conds string) {
	if n == nil || n.Kind == yaml.AliasNode {
		return // an alias's anchor is checked where it is written
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!unsafe" || l.reported[n] || (n.Tag != "!!str" && n.Tag != "" && n.Style == 0 && n.Tag != "!") {
			return
		}
		if isTemplate(n.Value) {
			if _, err := expr.ParseTemplate(n.Value); err != nil {
				l.exprErr(file, n, n.Value, "template", err)
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			l.checkTree(file, c, "")
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if conds != "" && k.Value == conds {
				l.checkConds(file, k.Value, v, l.conds(file, k.Value, v))
				continue
			}
			l.checkTree(file, v, "")
		}
	}
}

// checkTaskNodes checks the templates of a task's keys (conditions and
// nested task lists are checked where they are decoded).
func (l *loader) checkTaskNodes(file string, t *Task, es []entry) {
	for _, e := range es {
		switch {
		case condKeys[e.key], e.key == "block", e.key == "rescue", e.key == "always", e.key == "register":
		default:
			conds := ""
			if _, isModule := l.mods.known(e.key); isModule {
				conds = l.mods.conditions(t.Module)
			}
			l.checkTree(file, e.v, conds)
		}
	}
}

// exprErr records an expression or template syntax error at the node as a
// warning (Ansible parses templates only when the task runs, where the
// error fails the task), moving the column to the offending character
// when the node's text is the source on one line.
func (l *loader) exprErr(file string, n *yaml.Node, src, what string, err error) {
	pos := posOf(file, n)
	msg := err.Error()
	var ee *expr.Error
	if errors.As(err, &ee) {
		msg = ee.Msg
		if n.Value == src && !strings.Contains(src, "\n") && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
			off := 0
			if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
				off = 1
			}
			if n.Style&yaml.DoubleQuotedStyle == 0 || !strings.ContainsAny(src, `\"`) {
				pos.Col += off + ee.Col - 1
			}
		}
	}
	kind := "template"
	if what != "template" {
		kind = what + " expression"
	}
	l.warns.list = append(l.warns.list, &Error{Pos: pos, Msg: "bad " + kind + " " + quoteShort(src) + ": " + msg, Err: err})
}

func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}
