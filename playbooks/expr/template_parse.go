package expr

import (
	"strings"
)

// ParseTemplate parses a template string from a playbook value. Parse
// errors carry the column in src and say what was expected. As in Ansible,
// string literals inside {{ }} are taken verbatim (a backslash is a
// backslash: regex_replace('\.el8', ”) needs one), while in {% %} tags
// they process Python escapes.
func ParseTemplate(src string) (*Template, error) { return parseTemplate(src, true) }

// ParseFileTemplate parses the content of a template file (the `template`
// module, the `template` lookup): the same language, but string literals
// inside {{ }} process escapes too, as Ansible renders such files, and
// Render always returns a string.
func ParseFileTemplate(src string) (*Template, error) { return parseTemplate(src, false) }

func parseTemplate(src string, rawStrings bool) (*Template, error) {
	tp := &tparser{src: src, rawStrings: rawStrings}
	if err := tp.scan(); err != nil {
		return nil, err
	}
	body, stop, err := tp.build(nil)
	if err != nil {
		return nil, err
	}
	if stop != nil {
		return nil, tp.errAt(stop.at, "unexpected '%s'", stop.kw)
	}
	t := &Template{src: src, body: body}
	if len(body) == 1 && rawStrings {
		if o, ok := body[0].(outNode); ok {
			t.single = o.n
		}
	}
	return t, nil
}

// item is one piece of a scanned template: text, an output or a tag.
type item struct {
	at   int
	text *string
	out  node
	kw   string // tag keyword: if, elif, else, endif, for, endfor, set
	// tag payloads
	expr    node
	targets []string
	cond    node
}

type tparser struct {
	src        string
	rawStrings bool
	items      []item
	next       int
	depth      int
}

func (tp *tparser) errAt(pos int, format string, args ...any) *Error {
	return &Error{Src: tp.src, Col: pos + 1, Msg: errorf(format, args...).Error()}
}

func (tp *tparser) addText(s string) {
	if s != "" {
		tp.items = append(tp.items, item{text: &s})
	}
}

// scan splits the source into items, applying whitespace control.
func (tp *tparser) scan() error {
	src := tp.src
	pos := 0
	trimNext, nlNext := false, false
	for pos <= len(src) {
		i := indexOpen(src, pos)
		var txt string
		if i < 0 {
			txt = src[pos:]
		} else {
			txt = src[pos:i]
		}
		if trimNext {
			txt = strings.TrimLeft(txt, " \t\r\n\v\f")
		} else if nlNext {
			if strings.HasPrefix(txt, "\r\n") {
				txt = txt[2:]
			} else if strings.HasPrefix(txt, "\n") {
				txt = txt[1:]
			}
		}
		if i < 0 {
			tp.addText(txt)
			return nil
		}
		open := src[i : i+2]
		j := i + 2
		if j < len(src) && src[j] == '-' {
			txt = strings.TrimRight(txt, " \t\r\n\v\f")
			j++
		} else if j < len(src) && src[j] == '+' {
			j++
		}
		tp.addText(txt)
		switch open {
		case "{#":
			end := strings.Index(src[j:], "#}")
			if end < 0 {
				return tp.errAt(i, "missing end of comment tag '#}'")
			}
			end += j
			trimNext = end > j && src[end-1] == '-'
			nlNext = true
			pos = end + 2
		case "{{":
			p := &parser{lx: &lexer{src: src, pos: j, template: true, raw: tp.rawStrings}}
			if err := p.advance(); err != nil {
				return err
			}
			n, err := p.parseExpr()
			if err != nil {
				return err
			}
			if p.tok.kind != tVarEnd {
				return p.unexpected("'}}'")
			}
			tp.items = append(tp.items, item{at: i, out: n})
			trimNext, nlNext = p.tok.trim, false
			pos = p.tok.endAt
		case "{%":
			end, trim, err := tp.tag(i, j)
			if err != nil {
				return err
			}
			trimNext, nlNext = trim, true
			pos = end
		}
	}
	return nil
}

func indexOpen(s string, from int) int {
	for i := from; i+1 < len(s); i++ {
		if s[i] == '{' && (s[i+1] == '{' || s[i+1] == '%' || s[i+1] == '#') {
			return i
		}
	}
	return -1
}

// tag parses one {% ... %} starting at i (body at j); it returns the offset
// after the tag and whether it ended with -%}.
func (tp *tparser) tag(i, j int) (int, bool, error) {
	p := &parser{lx: &lexer{src: tp.src, pos: j, template: true}}
	if err := p.advance(); err != nil {
		return 0, false, err
	}
	if p.tok.kind != tName {
		return 0, false, p.unexpected("a tag name (if, elif, else, endif, for, endfor, set, raw)")
	}
	it := item{at: i, kw: p.tok.text}
	if err := p.advance(); err != nil {
		return 0, false, err
	}
	var err error
	switch it.kw {
	case "if", "elif":
		it.expr, err = p.parseExpr()
	case "else", "endif", "endfor":
	case "for":
		if it.targets, err = p.targets(); err != nil {
			return 0, false, err
		}
		if !p.isName("in") {
			return 0, false, p.unexpected("'in'")
		}
		if err = p.advance(); err != nil {
			return 0, false, err
		}
		if it.expr, err = p.parseOr(); err != nil {
			return 0, false, err
		}
		if p.isName("if") {
			if err = p.advance(); err != nil {
				return 0, false, err
			}
			it.cond, err = p.parseExpr()
		}
	case "set":
		if p.tok.kind != tName {
			return 0, false, p.unexpected("a variable name after 'set'")
		}
		it.targets = []string{p.tok.text}
		if err = p.advance(); err != nil {
			return 0, false, err
		}
		if err = p.expectOp("="); err != nil {
			return 0, false, err
		}
		it.expr, err = p.parseExpr()
	case "raw":
		if p.tok.kind != tBlockEnd {
			return 0, false, p.unexpected("'%}'")
		}
		return tp.raw(i, p.tok)
	default:
		return 0, false, tp.errAt(it.at, "unknown tag '%s' (expected if, elif, else, endif, for, endfor, set or raw)", it.kw)
	}
	if err != nil {
		return 0, false, err
	}
	if p.tok.kind != tBlockEnd {
		return 0, false, p.unexpected("'%}'")
	}
	tp.items = append(tp.items, it)
	return p.tok.endAt, p.tok.trim, nil
}

// raw copies text verbatim up to {% endraw %}.
func (tp *tparser) raw(i int, open token) (int, bool, error) {
	src := tp.src
	for k := open.endAt; ; {
		e := strings.Index(src[k:], "{%")
		if e < 0 {
			return 0, false, tp.errAt(i, "missing {%% endraw %%}")
		}
		e += k
		rest := strings.TrimLeft(src[e+2:], "-+ \t\r\n")
		if !strings.HasPrefix(rest, "endraw") {
			k = e + 2
			continue
		}
		body := src[open.endAt:e]
		if open.trim {
			body = strings.TrimLeft(body, " \t\r\n\v\f")
		}
		if e+2 < len(src) && src[e+2] == '-' {
			body = strings.TrimRight(body, " \t\r\n\v\f")
		}
		after := strings.TrimLeft(rest[len("endraw"):], " \t\r\n")
		end := len(src) - len(after)
		trim := strings.HasPrefix(after, "-%}")
		if trim {
			end += 3
		} else if strings.HasPrefix(after, "%}") {
			end += 2
		} else {
			return 0, false, tp.errAt(e, "expected '%%}' after endraw")
		}
		tp.addText(body)
		return end, trim, nil
	}
}

func (p *parser) targets() ([]string, error) {
	paren := p.isOp("(")
	if paren {
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	var names []string
	for {
		if p.tok.kind != tName {
			return nil, p.unexpected("a loop variable name")
		}
		names = append(names, p.tok.text)
		if err := p.advance(); err != nil {
			return nil, err
		}
		if !p.isOp(",") {
			break
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	if paren {
		if err := p.expectOp(")"); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// build turns items into a tree until one of the stop keywords; it returns
// the stopping item (nil at the end).
func (tp *tparser) build(stop []string) ([]tnode, *item, error) {
	tp.depth++
	defer func() { tp.depth-- }()
	if tp.depth > maxNesting {
		return nil, nil, tp.errAt(0, "blocks nested too deeply")
	}
	var out []tnode
	for tp.next < len(tp.items) {
		it := &tp.items[tp.next]
		tp.next++
		switch {
		case it.text != nil:
			out = append(out, textNode(*it.text))
		case it.out != nil:
			out = append(out, outNode{it.out})
		case contains(stop, it.kw):
			return out, it, nil
		case it.kw == "set":
			out = append(out, &setNode{it.targets[0], it.expr})
		case it.kw == "if":
			n := &ifNode{conds: []node{it.expr}}
			inElse := false
			for {
				body, end, err := tp.build([]string{"elif", "else", "endif"})
				if err != nil {
					return nil, nil, err
				}
				if end == nil {
					return nil, nil, tp.errAt(it.at, "missing {%% endif %%} for this {%% if %%}")
				}
				if inElse {
					n.els = append([]tnode{}, body...)
				} else {
					n.bodies = append(n.bodies, body)
				}
				if end.kw == "endif" {
					break
				}
				if inElse {
					if end.kw == "else" {
						return nil, nil, tp.errAt(end.at, "unexpected second 'else'")
					}
					return nil, nil, tp.errAt(end.at, "unexpected 'elif' after 'else'")
				}
				if end.kw == "elif" {
					n.conds = append(n.conds, end.expr)
				} else {
					inElse = true
				}
			}
			out = append(out, n)
		case it.kw == "for":
			n := &forNode{targets: it.targets, iter: it.expr, cond: it.cond}
			body, end, err := tp.build([]string{"else", "endfor"})
			if err != nil {
				return nil, nil, err
			}
			n.body = body
			if end != nil && end.kw == "else" {
				n.els, end, err = tp.build([]string{"endfor"})
				if err != nil {
					return nil, nil, err
				}
				if n.els == nil {
					n.els = []tnode{}
				}
			}
			if end == nil {
				return nil, nil, tp.errAt(it.at, "missing {%% endfor %%} for this {%% for %%}")
			}
			out = append(out, n)
		default:
			return nil, nil, tp.errAt(it.at, "unexpected '%s'", it.kw)
		}
	}
	return out, nil, nil
}
