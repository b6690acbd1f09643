package expr

import "fmt"

func (p *parser) parsePrimary() (node, error) {
	t := p.tok
	at := base{t.pos}
	switch t.kind {
	case tName:
		if err := p.advance(); err != nil {
			return nil, err
		}
		switch t.text {
		case "true", "True":
			return &litNode{at, true}, nil
		case "false", "False":
			return &litNode{at, false}, nil
		case "none", "None":
			return &litNode{at, nil}, nil
		}
		return &nameNode{at, t.text}, nil
	case tString:
		s := t.text
		if err := p.advance(); err != nil {
			return nil, err
		}
		for p.tok.kind == tString { // adjacent literals concatenate
			s += p.tok.text
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		return &litNode{at, s}, nil
	case tInt, tFloat:
		if err := p.advance(); err != nil {
			return nil, err
		}
		return &litNode{at, t.num}, nil
	case tOp:
		switch t.text {
		case "(":
			return p.parseParen()
		case "[":
			if err := p.advance(); err != nil {
				return nil, err
			}
			items, err := p.parseList("]")
			if err != nil {
				return nil, err
			}
			return &listNode{at, items}, nil
		case "{":
			return p.parseDict()
		}
	}
	return nil, p.unexpected("an expression")
}

// parseParen parses (expr) or a tuple (a, b), which becomes a list.
func (p *parser) parseParen() (node, error) {
	at := base{p.tok.pos}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if p.isOp(")") {
		return &listNode{at, nil}, p.advance()
	}
	first, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if p.isOp(")") {
		return first, p.advance()
	}
	if !p.isOp(",") {
		return nil, p.unexpected("')' or ','")
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	rest, err := p.parseList(")")
	if err != nil {
		return nil, err
	}
	return &listNode{at, append([]node{first}, rest...)}, nil
}

// parseList parses comma-separated expressions up to the closing token
// (a trailing comma is allowed) and consumes the closer.
func (p *parser) parseList(closer string) ([]node, error) {
	var items []node
	for !p.isOp(closer) {
		if len(items) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, p.unexpected("',' or '" + closer + "'")
			}
			if p.isOp(closer) {
				break
			}
		}
		n, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		items = append(items, n)
	}
	return items, p.advance()
}

func (p *parser) parseDict() (node, error) {
	d := &dictNode{base: base{p.tok.pos}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	for !p.isOp("}") {
		if len(d.keys) > 0 {
			if !p.isOp(",") {
				return nil, p.unexpected("',' or '}'")
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
			if p.isOp("}") {
				break
			}
		}
		k, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			return nil, p.unexpected("':' after dict key")
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		v, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		d.keys, d.vals = append(d.keys, k), append(d.vals, v)
	}
	return d, p.advance()
}

// parsePostfix parses .attr, [index], [lo:hi:step] and (call args).
func (p *parser) parsePostfix(n node) (node, error) {
	for {
		switch {
		case p.isOp("."):
			at := base{p.tok.pos}
			if err := p.advance(); err != nil {
				return nil, err
			}
			switch p.tok.kind {
			case tName:
				n = &attrNode{at, n, p.tok.text}
			case tInt:
				n = &indexNode{at, n, &litNode{base{p.tok.pos}, p.tok.num}}
			default:
				return nil, p.unexpected("attribute name after '.'")
			}
			if err := p.advance(); err != nil {
				return nil, err
			}
		case p.isOp("["):
			var err error
			if n, err = p.parseSubscript(n); err != nil {
				return nil, err
			}
		case p.isOp("("):
			at := base{p.tok.pos}
			args, err := p.parseArgs()
			if err != nil {
				return nil, err
			}
			n = &callNode{at, n, args}
		default:
			return n, nil
		}
	}
}

func (p *parser) parseSubscript(x node) (node, error) {
	at := base{p.tok.pos}
	if err := p.advance(); err != nil {
		return nil, err
	}
	var parts [3]node
	i := 0
	for {
		if !p.isOp(":") && !p.isOp("]") {
			n, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			parts[i] = n
		}
		if p.isOp("]") {
			break
		}
		if !p.isOp(":") || i == 2 {
			return nil, p.unexpected("']'")
		}
		i++
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	if i == 0 {
		if parts[0] == nil {
			return nil, &Error{Src: p.lx.src, Col: at.at + 1, Msg: "expected an expression inside []"}
		}
		return &indexNode{at, x, parts[0]}, nil
	}
	return &sliceNode{at, x, parts[0], parts[1], parts[2]}, nil
}

// parseArgs parses "(a, b, k=v, *list, **dict)"; the current token is
// "(". As in Jinja2, positional arguments come first, *iterable may appear
// once and only before **mapping, keywords may follow *iterable but not
// **mapping, and a keyword may not repeat.
func (p *parser) parseArgs() (callArgs, error) {
	var c callArgs
	if err := p.advance(); err != nil {
		return c, err
	}
	invalid := func() error {
		return p.unexpected("a valid argument (positional, then keyword, *iterable and **mapping)")
	}
	for first := true; !p.isOp(")"); first = false {
		if !first {
			if !p.isOp(",") {
				return c, p.unexpected("',' or ')'")
			}
			if err := p.advance(); err != nil {
				return c, err
			}
			if p.isOp(")") {
				break
			}
		}
		switch {
		case p.isOp("*"), p.isOp("**"):
			star := p.tok.text == "*"
			if c.dstar != nil || star && c.star != nil {
				return c, invalid()
			}
			if err := p.advance(); err != nil {
				return c, err
			}
			v, err := p.parseExpr()
			if err != nil {
				return c, err
			}
			if star {
				c.star = v
			} else {
				c.dstar = v
			}
			continue
		case p.tok.kind == tName:
			nt, err := p.lookahead()
			if err != nil {
				return c, err
			}
			if nt.kind == tOp && nt.text == "=" {
				if c.dstar != nil {
					return c, invalid()
				}
				name, at := p.tok.text, p.tok.pos
				for _, k := range c.kwargs {
					if k.name == name {
						return c, &Error{Src: p.lx.src, Col: at + 1, Msg: fmt.Sprintf("keyword argument repeated: %s", name)}
					}
				}
				if err := p.advance(); err != nil {
					return c, err
				}
				if err := p.advance(); err != nil {
					return c, err
				}
				v, err := p.parseExpr()
				if err != nil {
					return c, err
				}
				c.kwargs = append(c.kwargs, kwarg{name, v})
				continue
			}
		}
		if len(c.kwargs) > 0 {
			return c, p.unexpected("keyword argument (positional argument follows keyword argument)")
		}
		if c.star != nil || c.dstar != nil {
			return c, p.unexpected("keyword argument (positional argument follows *iterable or **mapping)")
		}
		v, err := p.parseExpr()
		if err != nil {
			return c, err
		}
		c.args = append(c.args, v)
	}
	return c, p.advance()
}

// filterCall parses a filter's name and its arguments, if any, after its
// "|", applying it to x; what names the name in the error for none.
func (p *parser) filterCall(at base, x node, what string) (node, error) {
	name, err := p.dottedName(what)
	if err != nil {
		return nil, err
	}
	f := &filterNode{base: at, x: x, name: name}
	p.uses.add(false, name)
	if p.isOp("(") {
		if f.callArgs, err = p.parseArgs(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// parseFilterExpr parses "| filter(args)" and "is [not] test args" chains.
func (p *parser) parseFilterExpr(n node) (node, error) {
	for {
		switch {
		case p.isOp("|"):
			at := base{p.tok.pos}
			if err := p.advance(); err != nil {
				return nil, err
			}
			var err error
			if n, err = p.filterCall(at, n, "filter name after '|'"); err != nil {
				return nil, err
			}
		case p.isName("is"):
			at := base{p.tok.pos}
			if err := p.advance(); err != nil {
				return nil, err
			}
			t := &testNode{base: at, x: n}
			if p.isName("not") {
				t.negate = true
				if err := p.advance(); err != nil {
					return nil, err
				}
			}
			name, err := p.dottedName("test name after 'is'")
			if err != nil {
				return nil, err
			}
			t.name = name
			p.uses.add(true, name)
			switch {
			case p.isOp("("):
				if t.callArgs, err = p.parseArgs(); err != nil {
					return nil, err
				}
			case p.tok.kind == tString || p.tok.kind == tInt || p.tok.kind == tFloat || p.isOp("[") || p.isOp("{") ||
				p.tok.kind == tName && !contains([]string{"else", "or", "and", "if", "in", "not", "is"}, p.tok.text):
				arg, err := p.parsePrimary()
				if err != nil {
					return nil, err
				}
				if arg, err = p.parsePostfix(arg); err != nil {
					return nil, err
				}
				t.args = []node{arg}
			}
			n = t
		default:
			return n, nil
		}
	}
}

func (p *parser) dottedName(what string) (string, error) {
	if p.tok.kind != tName {
		return "", p.unexpected(what)
	}
	name := p.tok.text
	if err := p.advance(); err != nil {
		return "", err
	}
	for p.isOp(".") {
		if err := p.advance(); err != nil {
			return "", err
		}
		if p.tok.kind != tName {
			return "", p.unexpected(what)
		}
		name += "." + p.tok.text
		if err := p.advance(); err != nil {
			return "", err
		}
	}
	return name, nil
}
