package expr

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
			args, kwargs, err := p.parseArgs()
			if err != nil {
				return nil, err
			}
			n = &callNode{at, n, args, kwargs}
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

// parseArgs parses "(a, b, k=v)"; the current token is "(".
func (p *parser) parseArgs() ([]node, []kwarg, error) {
	if err := p.advance(); err != nil {
		return nil, nil, err
	}
	var args []node
	var kwargs []kwarg
	for !p.isOp(")") {
		if len(args)+len(kwargs) > 0 {
			if !p.isOp(",") {
				return nil, nil, p.unexpected("',' or ')'")
			}
			if err := p.advance(); err != nil {
				return nil, nil, err
			}
			if p.isOp(")") {
				break
			}
		}
		if p.tok.kind == tName {
			nt, err := p.lookahead()
			if err != nil {
				return nil, nil, err
			}
			if nt.kind == tOp && nt.text == "=" {
				name := p.tok.text
				if err := p.advance(); err != nil {
					return nil, nil, err
				}
				if err := p.advance(); err != nil {
					return nil, nil, err
				}
				v, err := p.parseExpr()
				if err != nil {
					return nil, nil, err
				}
				kwargs = append(kwargs, kwarg{name, v})
				continue
			}
		}
		if len(kwargs) > 0 {
			return nil, nil, p.unexpected("keyword argument (positional argument follows keyword argument)")
		}
		v, err := p.parseExpr()
		if err != nil {
			return nil, nil, err
		}
		args = append(args, v)
	}
	return args, kwargs, p.advance()
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
			name, err := p.dottedName("filter name after '|'")
			if err != nil {
				return nil, err
			}
			f := &filterNode{base: at, x: n, name: name}
			if p.isOp("(") {
				if f.args, f.kwargs, err = p.parseArgs(); err != nil {
					return nil, err
				}
			}
			n = f
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
			switch {
			case p.isOp("("):
				if t.args, t.kwargs, err = p.parseArgs(); err != nil {
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
