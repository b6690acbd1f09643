package expr

import "strings"

// Parsing of the {% %} statements, as Jinja2 3.1's parser reads them.

// target is what for, set and with assign to: a name, a tuple of targets,
// or (set only) an attribute of a namespace, ns.attr.
type target struct {
	name  string
	items []*target // a tuple
	ns    string    // set ns.attr: the namespace's name
}

// statements lists the tags Jinja2 knows without extensions (as Ansible
// 2.14 configures it), for error messages.
const statements = "if, for, set, macro, call, filter, with, include, import, from, print, raw"

// tag parses one {% ... %} starting at i (body at j); it returns the offset
// after the tag and whether it ended with -%}.
func (tp *tparser) tag(i, j int) (int, bool, error) {
	p := &parser{lx: &lexer{src: tp.src, pos: j, template: true, d: tp.d}, uses: &tp.uses}
	if err := p.advance(); err != nil {
		return 0, false, err
	}
	if p.tok.kind != tName {
		return 0, false, p.unexpected("a tag name (" + statements + ")")
	}
	it := item{at: i, kw: p.tok.text}
	if err := p.advance(); err != nil {
		return 0, false, err
	}
	var err error
	switch it.kw {
	case "if", "elif":
		it.expr, err = p.parseExpr()
	case "else", "endif", "endfor", "endmacro", "endcall", "endfilter", "endwith", "endset":
	case "for":
		err = p.forTag(&it)
	case "set":
		err = p.setTag(&it)
	case "print":
		err = p.printTag(&it)
	case "include":
		err = p.includeTag(&it)
	case "import":
		err = p.importTag(&it)
	case "from":
		err = p.fromTag(&it)
	case "macro":
		if it.name, err = p.identifier("a macro name"); err == nil {
			err = p.signature(&it, true)
		}
	case "call":
		if p.isOp("(") {
			if err = p.signature(&it, false); err != nil {
				return 0, false, err
			}
		}
		it.expr, err = p.parseExpr()
		if _, isCall := it.expr.(*callNode); err == nil && !isCall {
			return 0, false, tp.errAt(it.at, "expected call")
		}
	case "filter":
		it.filter, err = p.filterChain(&blockInput{base{p.tok.pos}}, true)
	case "with":
		err = p.withTag(&it)
	case "raw":
		if p.tok.kind != tBlockEnd {
			return 0, false, p.unexpected("'%}'")
		}
		return tp.raw(i, p.tok)
	default:
		if why := refusedReason("statement", strings.TrimPrefix(it.kw, "end")); why != "" {
			return 0, false, tp.errAt(it.at, "{%% %s %%} is not supported by tender: %s", it.kw, why)
		}
		return 0, false, tp.errAt(it.at, "Encountered unknown tag '%s' (expected one of %s)", it.kw, statements)
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

// parseTuple parses an expression, or several separated by commas (a
// tuple, which is a list here).
func (p *parser) parseTuple() (node, error) {
	at := p.tok.pos
	first, err := p.parseExpr()
	if err != nil || !p.isOp(",") {
		return first, err
	}
	items := []node{first}
	for p.isOp(",") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind == tBlockEnd || p.isName("recursive") || p.isName("if") {
			break
		}
		n, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		items = append(items, n)
	}
	return &listNode{base{at}, items}, nil
}

// printTag parses print's comma-separated expressions, each output in
// turn.
func (p *parser) printTag(it *item) error {
	for p.tok.kind != tBlockEnd {
		if len(it.withValues) > 0 {
			if err := p.expectOp(","); err != nil {
				return err
			}
		}
		n, err := p.parseExpr()
		if err != nil {
			return err
		}
		it.withValues = append(it.withValues, n)
	}
	return nil
}

func (p *parser) identifier(what string) (string, error) {
	if p.tok.kind != tName {
		return "", p.unexpected(what)
	}
	name := p.tok.text
	return name, p.advance()
}

// assignTarget parses a name, a tuple of targets (with or without
// parentheses), or with ns a namespace attribute.
func (p *parser) assignTarget(ns bool) (*target, error) {
	first, err := p.targetItem(ns)
	if err != nil || !p.isOp(",") {
		return first, err
	}
	t := &target{items: []*target{first}}
	for p.isOp(",") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind != tName && !p.isOp("(") {
			break
		}
		x, err := p.targetItem(false)
		if err != nil {
			return nil, err
		}
		t.items = append(t.items, x)
	}
	return t, nil
}

func (p *parser) targetItem(ns bool) (*target, error) {
	if p.isOp("(") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		t, err := p.assignTarget(false)
		if err != nil {
			return nil, err
		}
		if t.items == nil && t.name != "" && !p.isOp(")") {
			return nil, p.unexpected("')'")
		}
		return t, p.expectOp(")")
	}
	name, err := p.identifier("a variable name")
	if err != nil {
		return nil, err
	}
	if ns && p.isOp(".") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		attr, err := p.identifier("an attribute name after '.'")
		if err != nil {
			return nil, err
		}
		return &target{name: attr, ns: name}, nil
	}
	return &target{name: name}, nil
}

func (p *parser) forTag(it *item) error {
	var err error
	if it.target, err = p.assignTarget(false); err != nil {
		return err
	}
	if !p.isName("in") {
		return p.unexpected("'in'")
	}
	if err = p.advance(); err != nil {
		return err
	}
	at := p.tok.pos
	if it.expr, err = p.parseOr(); err != nil {
		return err
	}
	if p.isOp(",") {
		items := []node{it.expr}
		for p.isOp(",") {
			if err = p.advance(); err != nil {
				return err
			}
			if p.tok.kind == tBlockEnd || p.isName("if") || p.isName("recursive") {
				break
			}
			n, err := p.parseOr()
			if err != nil {
				return err
			}
			items = append(items, n)
		}
		it.expr = &listNode{base{at}, items}
	}
	if p.isName("if") {
		if err = p.advance(); err != nil {
			return err
		}
		if it.cond, err = p.parseExpr(); err != nil {
			return err
		}
	}
	if p.isName("recursive") {
		it.recursive = true
		return p.advance()
	}
	return nil
}

// setTag parses "set target = expr" or, for a block set, "set target" or
// "set target | filters".
func (p *parser) setTag(it *item) error {
	var err error
	if it.target, err = p.assignTarget(true); err != nil {
		return err
	}
	if p.isOp("=") {
		if err := p.advance(); err != nil {
			return err
		}
		it.expr, err = p.parseTuple()
		return err
	}
	it.block = true
	if p.isOp("|") {
		if err := p.advance(); err != nil {
			return err
		}
		it.filter, err = p.filterChain(&blockInput{base{p.tok.pos}}, true)
	}
	return err
}

// filterChain parses "name(args) | name(args) ..." applied to x; first is
// whether the first name comes without its "|".
func (p *parser) filterChain(x node, first bool) (node, error) {
	for first || p.isOp("|") {
		at := base{p.tok.pos}
		if !first {
			if err := p.advance(); err != nil {
				return nil, err
			}
		}
		first = false
		var err error
		if x, err = p.filterCall(at, x, "a filter name"); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// signature parses a macro's or a call block's "(a, b=default, ...)".
func (p *parser) signature(it *item, required bool) error {
	if !p.isOp("(") {
		if required {
			return p.unexpected("'('")
		}
		return nil
	}
	if err := p.advance(); err != nil {
		return err
	}
	for !p.isOp(")") {
		if len(it.params) > 0 {
			if err := p.expectOp(","); err != nil {
				return err
			}
			if p.isOp(")") {
				break
			}
		}
		name, err := p.identifier("a parameter name")
		if err != nil {
			return err
		}
		var def node
		if p.isOp("=") {
			if err := p.advance(); err != nil {
				return err
			}
			if def, err = p.parseExpr(); err != nil {
				return err
			}
		} else if len(it.defaults) > 0 && it.defaults[len(it.defaults)-1] != nil {
			return p.unexpected("a default value (non-default argument follows default argument)")
		}
		it.params, it.defaults = append(it.params, name), append(it.defaults, def)
	}
	return p.advance()
}

func (p *parser) withTag(it *item) error {
	for p.tok.kind != tBlockEnd {
		if len(it.withTargets) > 0 {
			if err := p.expectOp(","); err != nil {
				return err
			}
		}
		t, err := p.assignTarget(false)
		if err != nil {
			return err
		}
		if err := p.expectOp("="); err != nil {
			return err
		}
		v, err := p.parseExpr()
		if err != nil {
			return err
		}
		it.withTargets, it.withValues = append(it.withTargets, t), append(it.withValues, v)
	}
	return nil
}

// context parses an optional "with context" or "without context".
func (p *parser) context(it *item) error {
	if !p.isName("with") && !p.isName("without") {
		return nil
	}
	nt, err := p.lookahead()
	if err != nil {
		return err
	}
	if nt.kind != tName || nt.text != "context" {
		return nil
	}
	it.withContext = p.tok.text == "with"
	if err := p.advance(); err != nil {
		return err
	}
	return p.advance()
}

func (p *parser) importTag(it *item) error {
	var err error
	if it.expr, err = p.parseExpr(); err != nil {
		return err
	}
	if !p.isName("as") {
		return p.unexpected("'as'")
	}
	if err := p.advance(); err != nil {
		return err
	}
	if it.name, err = p.identifier("a name after 'as'"); err != nil {
		return err
	}
	return p.context(it)
}

func (p *parser) fromTag(it *item) error {
	var err error
	if it.expr, err = p.parseExpr(); err != nil {
		return err
	}
	if !p.isName("import") {
		return p.unexpected("'import'")
	}
	if err := p.advance(); err != nil {
		return err
	}
	isContext := func() (bool, error) {
		if !p.isName("with") && !p.isName("without") {
			return false, nil
		}
		nt, err := p.lookahead()
		return err == nil && nt.kind == tName && nt.text == "context", err
	}
	for {
		if len(it.params) > 0 {
			if err := p.expectOp(","); err != nil {
				return err
			}
		}
		if p.tok.kind != tName {
			return p.unexpected("a name to import")
		}
		if ctx, err := isContext(); err != nil {
			return err
		} else if ctx {
			break
		}
		at := p.tok.pos
		name, _ := p.identifier("")
		if name[0] == '_' {
			return &Error{Src: p.lx.src, Col: at + 1, Msg: "names starting with an underline can not be imported"}
		}
		alias := name
		if p.isName("as") {
			if err := p.advance(); err != nil {
				return err
			}
			if alias, err = p.identifier("a name after 'as'"); err != nil {
				return err
			}
		}
		it.params, it.aliases = append(it.params, name), append(it.aliases, alias)
		if ctx, err := isContext(); err != nil {
			return err
		} else if ctx || !p.isOp(",") {
			break
		}
	}
	if len(it.params) == 0 {
		return p.unexpected("a name to import")
	}
	return p.context(it)
}
