package expr

import (
	"math/big"
	"strings"
	"sync"
	"unicode"

	"github.com/tender-sh/tender/internal/yaml11"
)

// Template is a parsed template string: text with {{ expr }} and Jinja's
// statements (if, for, set, macro, call, filter, with, include, import,
// from, print, raw) and {# comments #}, with Jinja's whitespace control
// ({%- -%}) and Ansible's trim_blocks (the first newline after a block tag
// is removed). Immutable and safe for concurrent use.
type Template struct {
	src    string // the source as given
	code   string // the source Jinja reads: newlines normalized, the last one dropped
	body   []tnode
	single node    // set when the template is exactly one {{ expr }}
	file   bool    // a template file's content (ParseFileTemplate)
	path   string  // the template file's path, when known (ParseFileTemplateAt)
	delims *delims // its markers when not Jinja's (ParseFileTemplateMarkers)
	// missing: a filter or test it names does not load, which fails every
	// rendering, as Jinja's compiled template looks them all up first.
	missing *missingPlugins
	names   []*nameNode // the names its top frame reads (resolve.go)
	// shown is the text Ansible's templar holds, which its messages quote
	// (escapedSource for a playbook template, src for a file).
	shown string
	// fold is whether Jinja's constant folding raises on it (fold.go),
	// worked out once.
	foldOnce sync.Once
	foldRaw  bool
}

// unrendered reports whether Ansible returns t's text as it is because
// Jinja's compiler raised while folding its constants (fold.go).
func (t *Template) unrendered(scope Scope) bool {
	t.foldOnce.Do(func() { t.foldRaw = foldRaises(envOf(scope), t.body) })
	return t.foldRaw
}

// IsTemplate reports whether s contains template markup ({{, {% or {#).
func IsTemplate(s string) bool {
	return strings.Contains(s, "{{") || strings.Contains(s, "{%") || strings.Contains(s, "{#")
}

// String returns the source text.
func (t *Template) String() string { return t.src }

// Render renders s in scope. A string without template markup is returned
// unchanged; see Template.Render for the rest.
func Render(s string, scope Scope) (any, error) {
	if !IsTemplate(s) {
		return s, nil
	}
	t, err := ParseTemplate(s)
	if err != nil {
		return nil, err
	}
	return t.Render(scope)
}

// Render renders the template. A playbook template (ParseTemplate) gives
// what ansible-core 2.14's Templar.template gives: "{{ name }}" (a bare
// variable, optionally followed by one newline) passes a number, a boolean
// or None through untouched; otherwise the output is text (None renders as
// nothing), and text that looks like a list or dict (it starts with [ or
// {) is read back as a Python literal, JSON's null, true and false
// included, as are "True" and "False": "{{ [1, 2] }}" and "{{ '[1, 2]' }}"
// are lists, "{{ 5 + 1 }}" is the string "6". The output of a
// string-type filter (string, to_json, to_nice_json, to_yaml, to_nice_yaml)
// as the whole of the output stays text. A template file
// (ParseFileTemplate) always renders to a string, as the template module's.
func (t *Template) Render(scope Scope) (any, error) {
	v, err := t.render(scope, nil, !t.file)
	if err != nil {
		return nil, err
	}
	return plain(v), nil
}

// render renders t in scope, sharing st (the work budget) when not nil;
// convert selects Ansible's converting concat (convert_data). The result
// keeps tender's internal values (nativeText); with convert, it is unsafe
// when the evaluation read an unsafe value (see unsafe.go).
func (t *Template) render(scope Scope, st *evalState, convert bool) (any, error) {
	v, err := t.renderOnce(scope, st, convert)
	if e, ok := err.(*Error); ok {
		switch {
		case t.shown != t.src && (e.Src == t.src || e.Src == t.code):
			// Ansible quotes the template as its templar holds it.
			c := *e
			c.Src = t.shown
			err = &c
		case e.Src == t.code && t.code != t.src && strings.HasPrefix(t.src, t.code):
			// and a file's whole, with the last newline Jinja drops.
			c := *e
			c.Src = t.src
			err = &c
		}
	}
	return v, undefinedTypeError(err, t.shown)
}

// renderOnce is render without its error's conversion.
func (t *Template) renderOnce(scope Scope, st *evalState, convert bool) (any, error) {
	if err := t.missing.check(scope, t.src); err != nil {
		return nil, err
	}
	if convert {
		if v, ok, err := t.singleVar(scope); ok || err != nil {
			return v, err
		}
	}
	if t.unrendered(scope) {
		return t.shown, nil
	}
	ev := newEvaluator(scope, t.code)
	if st != nil {
		ev.st = st
	}
	ev.top, ev.convert = t, convert
	ev.native = convert && envOf(scope).Native
	if t.delims != nil {
		ev.delims = t.delims
	}
	o := ev.newOutput()
	frame := &local{parent: scope, vars: map[string]any{}}
	if err := ev.resolveFirst(frame, t.names); err != nil {
		return nil, err
	}
	if err := ev.renderBody(o, t.body, frame); err != nil {
		return nil, err
	}
	v, err := ev.concat(o)
	if err != nil {
		return nil, err
	}
	if t.delims != nil && t.delims.newline != "" {
		v = keepNewlinesSeq(t.src, v, t.delims.newline)
	} else {
		v = keepNewlines(t.src, v)
	}
	if convert && st == nil && ev.st.unsafe {
		v = unsafeDeep(v)
	}
	return v, nil
}

// keepNewlines gives a string result as many trailing newlines as src has
// (Ansible's preserve_trailing_newlines: Jinja drops the last one).
func keepNewlines(src string, v any) any {
	switch s := v.(type) {
	case string:
		return keepTrailingNewlines(src, s)
	case nativeText:
		return nativeText(keepTrailingNewlines(src, string(s)))
	case nativeUnsafe:
		return nativeUnsafe(keepTrailingNewlines(src, string(s)))
	case yaml11.Unsafe:
		return yaml11.Unsafe(keepTrailingNewlines(src, string(s)))
	}
	return v
}

// keepNewlinesSeq is keepNewlines for a template whose newline sequence
// is seq: as Ansible's templar, it counts the "\n" that end src and the
// output, and makes up the difference with seq.
func keepNewlinesSeq(src string, v any, seq string) any {
	s, ok := v.(string)
	if !ok {
		return keepNewlines(src, v)
	}
	want := len(src) - len(strings.TrimRight(src, "\n"))
	if have := len(s) - len(strings.TrimRight(s, "\n")); want > have {
		s += strings.Repeat(seq, want-have)
	}
	return s
}

// keepTrailingNewlines gives out as many trailing newlines as src has, as
// Ansible does after Jinja (whose trim_blocks may take the last one away).
func keepTrailingNewlines(src, out string) string {
	want := len(src) - len(strings.TrimRight(src, "\n"))
	have := len(out) - len(strings.TrimRight(out, "\n"))
	if want > have {
		out += strings.Repeat("\n", want-have)
	}
	return out
}

// singleVar is Templar.template's shortcut for a template that is one
// variable, "{{ name }}" (Python's regexp also matches with one newline
// after it): when the variable's own value (before templating) is a
// number, a boolean or None, that value is the result.
func (t *Template) singleVar(scope Scope) (any, bool, error) {
	name, ok := singleVarName(t.src)
	if !ok {
		return nil, false, nil
	}
	var v any
	var found bool
	if r, isRaw := scope.(rawScope); isRaw {
		v, found = r.rawLookup(name)
	} else {
		var err error
		if v, found, err = scope.Lookup(name); err != nil {
			return nil, false, nil
		}
	}
	if !found {
		return nil, false, nil
	}
	switch v.(type) {
	case nil, bool, int, float64:
		return v, true, nil
	}
	return nil, false, nil
}

// singleVarName matches Ansible's SINGLE_VAR regexp, ^{{\s*(\w*)\s*}}$.
func singleVarName(s string) (string, bool) {
	s = strings.TrimSuffix(s, "\n")
	if !strings.HasPrefix(s, "{{") || !strings.HasSuffix(s, "}}") || len(s) < 4 {
		return "", false
	}
	inner := strings.TrimFunc(s[2:len(s)-2], pySpace)
	for _, r := range inner {
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc)) {
			return "", false
		}
	}
	return inner, inner != ""
}

// output collects what a template outputs, as the pieces Jinja yields:
// their text, how many there were and the first one (for Ansible's concat,
// which treats a single piece specially).
type output struct {
	b     strings.Builder
	n     int
	first any
	// native keeps None as a piece (the native environment's finalize):
	// it is written "None" when joined.
	native bool
	// counted is how much of b was counted against the memory limit.
	counted int
}

// text adds a piece of template text.
func (o *output) text(s string) {
	if s == "" {
		return
	}
	o.value(s)
}

// value adds the value of an output statement; None outputs nothing
// (Ansible's finalize).
func (o *output) value(v any) {
	if v == nil && !o.native {
		v = ""
	}
	o.n++
	if o.n == 1 {
		o.first = v
	}
	if s, ok := v.(string); ok {
		o.b.WriteString(s)
	} else {
		o.b.WriteString(Str(v))
	}
}

// newOutput is where a template's output (or a macro's, a block's) is
// collected for ev's concat.
func (ev *evaluator) newOutput() *output { return &output{native: ev.native} }

// concat joins a template's output as the environment's concat does: as
// text (ansible_concat, Jinja's own), or, converting (ansible_eval_concat,
// Templar.template's default), reading text that looks like a list, a
// dict or a boolean back as a Python literal.
func (ev *evaluator) concat(o *output) (any, error) {
	if o.b.Len() > maxSize {
		return nil, &Error{Src: ev.src, Col: 1, Msg: "template output too large"}
	}
	if ev.native {
		return ev.nativeConcat(o)
	}
	if !ev.convert {
		return o.b.String(), nil
	}
	switch o.n {
	case 0:
		return "", nil
	case 1:
		switch v := o.first.(type) {
		case nativeText, nativeUnsafe, omitValue:
			return v, nil
		case bool:
			return v, nil
		case []any, map[string]any:
			if literalSafe(v, 0) {
				return plain(v), nil
			}
		case Keyed:
			m, err := materialize(v)
			if err != nil {
				return nil, err
			}
			if literalSafe(m, 0) {
				return plain(m), nil
			}
		case Scope:
			return unwatch(v), nil // a dict that cannot be listed stays as it is
		case yaml11.Unsafe:
			c, err := convertText(string(v))
			if s, isText := c.(string); isText && err == nil {
				return yaml11.Unsafe(s), nil
			}
			return unsafeDeep(c), err
		}
	}
	s := o.b.String()
	v, err := convertText(s)
	if err != nil {
		return nil, err
	}
	// a list or a dict read back from the output is new
	if err := ev.st.b.alloc(newBytes(v, true, []any{s})); err != nil {
		return nil, ev.limit(err)
	}
	return v, nil
}

// convertText is the last step of ansible_eval_concat.
func convertText(s string) (any, error) {
	switch {
	case s == "True":
		return true, nil
	case s == "False":
		return false, nil
	case strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{"):
		v, ok, err := pyLiteral(s)
		if err != nil {
			return nil, err
		}
		if ok {
			return v, nil
		}
	}
	return s, nil
}

// literalSafe reports whether v reads back unchanged from its Python
// repr, so that Ansible's text round trip can be skipped: plain lists,
// dicts, strings, numbers (not inf or nan), booleans and None.
func literalSafe(v any, depth int) bool {
	if depth > maxLiteralNesting {
		return false
	}
	switch t := v.(type) {
	case nil, bool, int, *big.Int, string, yaml11.Unsafe, nativeText, nativeUnsafe, omitValue:
		return true
	case float64:
		return t-t == 0
	case []any:
		for _, e := range t {
			if !literalSafe(e, depth+1) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range t {
			if !literalSafe(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// native evaluates a one-{{ expr }} template to the expression's own value,
// as a filter or test inside the template sees it (the case table records
// expressions that way, with type_debug).
func (t *Template) native(scope Scope) (any, error) {
	if t.single == nil {
		return t.Render(scope)
	}
	ev := newEvaluator(scope, t.code)
	ev.top, ev.convert = t, true
	if len(t.names) > 0 {
		frame := &local{parent: scope}
		if err := ev.resolveFirst(frame, t.names); err != nil {
			return nil, err
		}
		ev.scope = frame
	}
	return ev.printed(t.single)
}
