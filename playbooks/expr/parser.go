package expr

import (
	"fmt"
)

// Expr is a parsed expression, such as the text of a `when:` condition.
// It is immutable and safe for concurrent use.
type Expr struct {
	src  string
	root node
	// missing: a filter or test it names does not load, which fails every
	// evaluation, as Jinja's compiled template looks them all up first.
	missing *missingPlugins
	names   []*nameNode // the names it reads, in Jinja's order (resolve.go)
}

// String returns the source text.
func (e *Expr) String() string { return e.src }

// Parse parses a Jinja2 expression (without the surrounding {{ }}).
func Parse(src string) (*Expr, error) {
	p := &parser{lx: &lexer{src: src}, uses: &pluginUses{}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	n, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tEOF {
		return nil, p.unexpected("end of expression")
	}
	return &Expr{src: src, root: n, missing: p.uses.missing(), names: exprNames(n)}, nil
}

// parser is a recursive-descent parser following Jinja2's grammar and
// operator precedence (including its left-associative **).
type parser struct {
	lx    *lexer
	tok   token
	peek  *token
	depth int
	// uses collects the filters and tests the source names (plugin_load.go).
	uses *pluginUses
}

// maxNesting bounds how deeply expressions and blocks may nest, so that
// hostile input is an error instead of a stack overflow.
const maxNesting = 500

func (p *parser) advance() error {
	if p.peek != nil {
		p.tok, p.peek = *p.peek, nil
		return nil
	}
	t, err := p.lx.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) lookahead() (token, error) {
	if p.peek == nil {
		t, err := p.lx.next()
		if err != nil {
			return token{}, err
		}
		p.peek = &t
	}
	return *p.peek, nil
}

func (p *parser) describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tString:
		return "string"
	case tInt, tFloat:
		return fmt.Sprintf("number %s", t.text)
	case tName:
		return fmt.Sprintf("name '%s'", t.text)
	}
	return fmt.Sprintf("'%s'", t.text)
}

func (p *parser) unexpected(expected string) *Error {
	return &Error{Src: p.lx.src, Col: p.tok.pos + 1, Msg: fmt.Sprintf("expected %s, got %s", expected, p.describe(p.tok))}
}

func (p *parser) isOp(s string) bool   { return p.tok.kind == tOp && p.tok.text == s }
func (p *parser) isName(s string) bool { return p.tok.kind == tName && p.tok.text == s }

func (p *parser) expectOp(s string) error {
	if !p.isOp(s) {
		return p.unexpected("'" + s + "'")
	}
	return p.advance()
}

// parseExpr: ternary, the loosest construct.
func (p *parser) parseExpr() (node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return nil, &Error{Src: p.lx.src, Col: p.tok.pos + 1, Msg: "expression nested too deeply"}
	}
	at := p.tok.pos
	a, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	for p.isName("if") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		c, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		var b node
		if p.isName("else") {
			if err := p.advance(); err != nil {
				return nil, err
			}
			if b, err = p.parseExpr(); err != nil {
				return nil, err
			}
		}
		a = &condNode{base{at}, a, c, b}
	}
	return a, nil
}

func (p *parser) parseOr() (node, error)  { return p.parseBinary(tName, []string{"or"}, p.parseAnd) }
func (p *parser) parseAnd() (node, error) { return p.parseBinary(tName, []string{"and"}, p.parseNot) }

func (p *parser) parseNot() (node, error) {
	if p.isName("not") {
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxNesting {
			return nil, &Error{Src: p.lx.src, Col: p.tok.pos + 1, Msg: "expression nested too deeply"}
		}
		at := p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &unaryNode{base{at}, "not", x}, nil
	}
	return p.parseCompare()
}

func (p *parser) parseCompare() (node, error) {
	at := p.tok.pos
	first, err := p.parseMath1()
	if err != nil {
		return nil, err
	}
	c := &cmpNode{base: base{at}, first: first}
	for {
		var op string
		switch {
		case p.tok.kind == tOp && (p.tok.text == "==" || p.tok.text == "!=" || p.tok.text == "<" || p.tok.text == "<=" || p.tok.text == ">" || p.tok.text == ">="):
			op = p.tok.text
		case p.isName("in"):
			op = "in"
		case p.isName("not"):
			nt, err := p.lookahead()
			if err != nil {
				return nil, err
			}
			if nt.kind != tName || nt.text != "in" {
				return nil, p.unexpected("'in' after 'not'")
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
			op = "not in"
		}
		if op == "" {
			break
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := p.parseMath1()
		if err != nil {
			return nil, err
		}
		c.ops = append(c.ops, op)
		c.rest = append(c.rest, r)
	}
	if len(c.ops) == 0 {
		return first, nil
	}
	return c, nil
}

// parseBinary parses left-associative operators: sub, then any number of
// an operator (a token of kind among ops) and sub again.
func (p *parser) parseBinary(kind tokKind, ops []string, sub func() (node, error)) (node, error) {
	l, err := sub()
	if err != nil {
		return nil, err
	}
	for p.tok.kind == kind && contains(ops, p.tok.text) {
		op, at := p.tok.text, p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		r, err := sub()
		if err != nil {
			return nil, err
		}
		l = &binNode{base{at}, op, l, r}
	}
	return l, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) parseMath1() (node, error) {
	return p.parseBinary(tOp, []string{"+", "-"}, p.parseConcat)
}
func (p *parser) parseConcat() (node, error) { return p.parseBinary(tOp, []string{"~"}, p.parseMath2) }
func (p *parser) parseMath2() (node, error) {
	return p.parseBinary(tOp, []string{"*", "/", "//", "%"}, p.parsePow)
}
func (p *parser) parsePow() (node, error) {
	return p.parseBinary(tOp, []string{"**"}, func() (node, error) { return p.parseUnary(true) })
}

func (p *parser) parseUnary(withFilter bool) (node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxNesting {
		return nil, &Error{Src: p.lx.src, Col: p.tok.pos + 1, Msg: "expression nested too deeply"}
	}
	var n node
	if p.isOp("-") || p.isOp("+") {
		op, at := p.tok.text, p.tok.pos
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.parseUnary(false)
		if err != nil {
			return nil, err
		}
		n = &unaryNode{base{at}, op, x}
	} else {
		var err error
		if n, err = p.parsePrimary(); err != nil {
			return nil, err
		}
	}
	n, err := p.parsePostfix(n)
	if err != nil {
		return nil, err
	}
	if withFilter {
		return p.parseFilterExpr(n)
	}
	return n, nil
}
