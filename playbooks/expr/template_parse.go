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

// ParseFileTemplateAt is ParseFileTemplate for the template file at path:
// its {% include %}s look in path's directory first, then in DIR/templates
// and DIR of each search path of the Env.
func ParseFileTemplateAt(src, path string) (*Template, error) {
	t, err := parseTemplate(src, false)
	if err != nil {
		return nil, err
	}
	t.path = path
	return t, nil
}

// TemplateMarkers are the names of the template module's options that
// set a template file's markers, over Jinja's.
var TemplateMarkers = []string{"variable_start_string", "variable_end_string", "block_start_string",
	"block_end_string", "comment_start_string", "comment_end_string"}

// FileSyntax is how a template file is read, as the template module's
// options set it: Markers (keyed by the names of TemplateMarkers; a
// missing or empty one is Jinja's), NoTrimBlocks (trim_blocks: false)
// and LstripBlocks (lstrip_blocks: true).
type FileSyntax struct {
	Markers                    map[string]string
	NoTrimBlocks, LstripBlocks bool
	// Newline is Jinja's newline_sequence ("\r", "\r\n"; "" is "\n"):
	// the newlines of the template's text become it (not those of the
	// values it renders).
	Newline string
}

// ParseFileTemplateSyntax is ParseFileTemplateAt read with syntax; the
// files it includes are read the same way.
func ParseFileTemplateSyntax(src, path string, syntax FileSyntax) (*Template, error) {
	d := *defaultDelims
	if err := d.set(syntax.Markers); err != nil {
		return nil, err
	}
	d.noTrimBlocks, d.lstripBlocks = syntax.NoTrimBlocks, syntax.LstripBlocks
	if syntax.Newline != "\n" {
		d.newline = syntax.Newline
	}
	t, err := parseTemplateWith(src, false, &d)
	if err != nil {
		return nil, err
	}
	t.path = path
	if t.delims == nil && d != *defaultDelims {
		t.delims = &d
	}
	return t, nil
}

// set sets the markers named in markers (the names of TemplateMarkers).
func (d *delims) set(markers map[string]string) error {
	for name, m := range markers {
		dst := map[string]*string{"variable_start_string": &d.varStart, "variable_end_string": &d.varEnd,
			"block_start_string": &d.blockStart, "block_end_string": &d.blockEnd,
			"comment_start_string": &d.commentStart, "comment_end_string": &d.commentEnd}[name]
		if dst == nil {
			return errorf("%s is not a template marker", name)
		}
		if m != "" {
			*dst = m
		}
	}
	return nil
}

func parseTemplate(src string, rawStrings bool) (*Template, error) {
	return parseTemplateWith(src, rawStrings, defaultDelims)
}

// jinjaSource is the source as Jinja's lexer reads it: every line break
// (\r\n, \r) is a \n, and the last one is dropped (keep_trailing_newline
// is off).
func jinjaSource(src string) string {
	if strings.ContainsRune(src, '\r') {
		src = strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n")
	}
	return strings.TrimSuffix(src, "\n")
}

// delims are the markers of a template's variables, tags and comments.
type delims struct {
	varStart, varEnd, blockStart, blockEnd, commentStart, commentEnd string
	// noTrimBlocks keeps the newline after a tag or comment (Ansible's
	// trim_blocks is on unless a template turns it off); lstripBlocks
	// strips the spaces and tabs before a tag or comment alone on its
	// line's start.
	noTrimBlocks, lstripBlocks bool
	// lineStatement is the line statement prefix a #jinja2: header sets
	// ("" for none).
	lineStatement string
	// newline is the newline sequence the text's newlines become ("":
	// as they are).
	newline string
}

// defaultDelims are Jinja's: {{ }}, {% %}, {# #}.
var defaultDelims = &delims{"{{", "}}", "{%", "%}", "{#", "#}", false, false, "", ""}

// jinjaNewlines are the newlines Jinja's lexer normalizes.
var jinjaNewlines = strings.NewReplacer("\r\n", "\n", "\r", "\n")

func parseTemplateWith(src string, rawStrings bool, d *delims) (*Template, error) {
	text, d, err := withOverrides(src, d)
	if err != nil {
		return nil, &Error{Src: src, Col: 1, Msg: err.Error()}
	}
	code := jinjaSource(lineStatements(text, d))
	tp := &tparser{src: code, rawStrings: rawStrings, d: d}
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
	t := &Template{src: src, code: code, body: body, file: !rawStrings, missing: tp.uses.missing(), names: templateNames(body), shown: src}
	if rawStrings {
		t.shown = escapedSource(src)
	}
	if *d != *defaultDelims {
		t.delims = d
	}
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
	kw   string // tag keyword: if, elif, else, endif, for, endfor, set, …
	// tag payloads
	expr          node
	target        *target // for, set
	cond          node    // for … if
	recursive     bool    // for
	block         bool    // set without "=": a block set
	filter        node    // filter, block set: the filters over blockInput
	name          string  // macro, import … as NAME
	params        []string
	defaults      []node    // macro, call: nil where a parameter has none
	aliases       []string  // from … import: the names bound (params are imported)
	withTargets   []*target // with
	withValues    []node
	ignoreMissing bool // include
	noContext     bool // include
	withContext   bool // import, from
}

type tparser struct {
	uses       pluginUses // the filters and tests it names
	src        string
	rawStrings bool
	d          *delims
	// nextAt caches, per marker (variable, block, comment), 1 + where it
	// next occurs; 0 is not known yet, -1 none left.
	nextAt [3]int
	items  []item
	next   int
	depth  int
}

func (tp *tparser) errAt(pos int, format string, args ...any) *Error {
	return &Error{Src: tp.src, Col: pos + 1, Msg: errorf(format, args...).Error()}
}

func (tp *tparser) addText(s string) {
	if tp.d.newline != "" {
		s = strings.ReplaceAll(jinjaNewlines.Replace(s), "\n", tp.d.newline)
	}
	if s != "" {
		tp.items = append(tp.items, item{text: &s})
	}
}

// scan splits the source into items, applying whitespace control.
func (tp *tparser) scan() error {
	src := tp.src
	pos := 0
	trimNext, nlNext := false, false
	lineStart := true // the text begins a line: the template's start, or a trimmed newline before it
	for pos <= len(src) {
		i, open := tp.indexOpen(pos)
		var txt string
		if i < 0 {
			txt = src[pos:]
		} else {
			txt = src[pos:i]
		}
		if trimNext {
			txt = strings.TrimLeftFunc(txt, pySpace)
		} else if nlNext {
			if strings.HasPrefix(txt, "\r\n") {
				txt, lineStart = txt[2:], true
			} else if strings.HasPrefix(txt, "\n") {
				txt, lineStart = txt[1:], true
			}
		}
		if i < 0 {
			tp.addText(txt)
			return nil
		}
		j := i + len(open)
		if j < len(src) && src[j] == '-' {
			txt = strings.TrimRightFunc(txt, pySpace)
			j++
		} else if j < len(src) && src[j] == '+' {
			j++
		} else if tp.d.lstripBlocks && open != tp.d.varStart {
			txt = lstripLine(txt, lineStart)
		}
		lineStart = false
		tp.addText(txt)
		switch open {
		case tp.d.commentStart:
			end := strings.Index(src[j:], tp.d.commentEnd)
			if end < 0 {
				return tp.errAt(i, "missing end of comment tag '%s'", tp.d.commentEnd)
			}
			end += j
			trimNext = end > j && src[end-1] == '-'
			nlNext = !tp.d.noTrimBlocks
			pos = end + len(tp.d.commentEnd)
		case tp.d.varStart:
			p := &parser{lx: &lexer{src: src, pos: j, template: true, raw: tp.rawStrings, d: tp.d}, uses: &tp.uses}
			if err := p.advance(); err != nil {
				return err
			}
			n, err := p.parseExpr()
			if err != nil {
				return err
			}
			if p.tok.kind != tVarEnd {
				return p.unexpected("'" + tp.d.varEnd + "'")
			}
			tp.items = append(tp.items, item{at: i, out: n})
			trimNext, nlNext = p.tok.trim, false
			pos = p.tok.endAt
		default:
			end, trim, err := tp.tag(i, j)
			if err != nil {
				return err
			}
			trimNext, nlNext = trim, !tp.d.noTrimBlocks
			pos = end
		}
	}
	return nil
}

// lstripLine is lstrip_blocks on the text before a tag: the spaces and
// tabs after its last newline (or all of it, when it has none and begins
// a line) go, when nothing else is there.
func lstripLine(txt string, lineStart bool) string {
	l := strings.LastIndexByte(txt, '\n') + 1
	if l == 0 && !lineStart {
		return txt
	}
	if strings.Trim(txt[l:], " \t") != "" {
		return txt
	}
	return txt[:l]
}

// indexOpen finds the next variable, tag or comment start at or after
// from; where two markers start at the same place the longer wins, as in
// Jinja's lexer. It remembers where each marker occurs next, so that a
// whole scan stays linear.
func (tp *tparser) indexOpen(from int) (int, string) {
	best, open := -1, ""
	for k, m := range []string{tp.d.varStart, tp.d.blockStart, tp.d.commentStart} {
		if tp.nextAt[k] == 0 || tp.nextAt[k]-1 < from && tp.nextAt[k] > 0 {
			tp.nextAt[k] = -1
			if i := strings.Index(tp.src[from:], m); i >= 0 {
				tp.nextAt[k] = from + i + 1
			}
		}
		i := tp.nextAt[k] - 1
		if i < 0 {
			continue
		}
		if best < 0 || i < best || i == best && len(m) > len(open) {
			best, open = i, m
		}
	}
	return best, open
}

// raw copies text verbatim up to {% endraw %}.
func (tp *tparser) raw(i int, open token) (int, bool, error) {
	src := tp.src
	bs, be := tp.d.blockStart, tp.d.blockEnd
	for k := open.endAt; ; {
		e := strings.Index(src[k:], bs)
		if e < 0 {
			return 0, false, tp.errAt(i, "missing %s endraw %s", bs, be)
		}
		e += k
		inner := e + len(bs)
		rest := strings.TrimLeftFunc(src[inner:], func(r rune) bool { return r == '-' || r == '+' || pySpace(r) })
		if !strings.HasPrefix(rest, "endraw") {
			k = inner
			continue
		}
		body := src[open.endAt:e]
		if open.trim {
			body = strings.TrimLeftFunc(body, pySpace)
		}
		if inner < len(src) && src[inner] == '-' {
			body = strings.TrimRightFunc(body, pySpace)
		}
		after := strings.TrimLeftFunc(rest[len("endraw"):], pySpace)
		end := len(src) - len(after)
		trim := strings.HasPrefix(after, "-"+be)
		if trim {
			end += 1 + len(be)
		} else if strings.HasPrefix(after, be) {
			end += len(be)
		} else {
			return 0, false, tp.errAt(e, "expected '%s' after endraw", be)
		}
		tp.addText(body)
		return end, trim, nil
	}
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
		var n tnode
		var err error
		switch {
		case it.text != nil:
			n = textNode(*it.text)
		case it.out != nil:
			n = outNode{it.out}
		case contains(stop, it.kw):
			return out, it, nil
		case it.kw == "set" && !it.block:
			n = &setNode{it.target, it.expr}
		case it.kw == "print":
			for _, e := range it.withValues {
				out = append(out, outNode{e})
			}
			continue
		case it.kw == "include":
			n = &includeNode{at: it.at, name: it.expr, ignoreMissing: it.ignoreMissing, noContext: it.noContext}
		case it.kw == "import":
			n = &importNode{at: it.at, name: it.expr, as: it.name, withContext: it.withContext}
		case it.kw == "from":
			n = &fromNode{at: it.at, name: it.expr, names: it.params, aliases: it.aliases, withContext: it.withContext}
		case it.kw == "if":
			n, err = tp.buildIf(it)
		case it.kw == "for":
			n, err = tp.buildFor(it)
		default:
			n, err = tp.buildBlock(it)
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, n)
	}
	return out, nil, nil
}

func (tp *tparser) buildIf(it *item) (tnode, error) {
	n := &ifNode{conds: []node{it.expr}}
	inElse := false
	for {
		body, end, err := tp.build([]string{"elif", "else", "endif"})
		if err != nil {
			return nil, err
		}
		if end == nil {
			return nil, tp.errAt(it.at, "missing {%% endif %%} for this {%% if %%}")
		}
		if inElse {
			n.els = append([]tnode{}, body...)
		} else {
			n.bodies = append(n.bodies, body)
		}
		if end.kw == "endif" {
			return n, nil
		}
		if inElse {
			if end.kw == "else" {
				return nil, tp.errAt(end.at, "unexpected second 'else'")
			}
			return nil, tp.errAt(end.at, "unexpected 'elif' after 'else'")
		}
		if end.kw == "elif" {
			n.conds = append(n.conds, end.expr)
		} else {
			inElse = true
		}
	}
}

func (tp *tparser) buildFor(it *item) (tnode, error) {
	n := &forNode{tgt: it.target, iter: it.expr, cond: it.cond, recursive: it.recursive}
	body, end, err := tp.build([]string{"else", "endfor"})
	if err != nil {
		return nil, err
	}
	n.body = body
	if end != nil && end.kw == "else" {
		n.els, end, err = tp.build([]string{"endfor"})
		if err != nil {
			return nil, err
		}
		if n.els == nil {
			n.els = []tnode{}
		}
	}
	if end == nil {
		return nil, tp.errAt(it.at, "missing {%% endfor %%} for this {%% for %%}")
	}
	return n, nil
}

// buildBlock builds the statements with a body and an end tag: macro,
// call, filter, with and a block set.
func (tp *tparser) buildBlock(it *item) (tnode, error) {
	end := map[string]string{"macro": "endmacro", "call": "endcall", "filter": "endfilter", "with": "endwith", "set": "endset"}[it.kw]
	if end == "" {
		return nil, tp.errAt(it.at, "unexpected '%s'", it.kw)
	}
	body, stop, err := tp.build([]string{end})
	if err != nil {
		return nil, err
	}
	if stop == nil {
		return nil, tp.errAt(it.at, "missing {%% %s %%} for this {%% %s %%}", end, it.kw)
	}
	switch it.kw {
	case "macro":
		return &macroNode{at: it.at, name: it.name, sig: newSignature(it, body), body: body}, nil
	case "call":
		return &callBlockNode{at: it.at, sig: newSignature(it, body), call: it.expr, body: body}, nil
	case "filter":
		return &filterBlockNode{filter: it.filter, body: body}, nil
	case "with":
		return &withNode{tgts: it.withTargets, vals: it.withValues, body: body}, nil
	}
	return &setBlockNode{tgt: it.target, filter: it.filter, body: body}, nil
}
