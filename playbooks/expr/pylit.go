package expr

import (
	"math/big"
	"strings"
	"unicode/utf8"
)

// pyLiteral is what ansible-core 2.14 does to a template result that looks
// like a dict or a list: ast.literal_eval of the text, with JSON's null,
// true and false read as None, True and False. ok is false when Python
// would not convert the text (a syntax error or an expression that is not
// a literal: the text stays as it is). An error is a conversion Python
// makes that fails the template there (an unhashable dict key), or one
// tender refuses because its values cannot represent the result (bytes,
// complex numbers, sets, Ellipsis, tuple keys).
func pyLiteral(s string) (v any, ok bool, err error) { return parseLiteral(s, true) }

// parseLiteral is ast.literal_eval(ast.parse(s, mode='eval')), with JSON's
// names read as Python's when json is set (ansible_eval_concat does that,
// the native concat does not). At the top level, outside brackets, a
// comma makes a tuple, and a line may not be indented nor continue onto
// the next.
func parseLiteral(s string, json bool) (v any, ok bool, err error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, false, nil // Python refuses source code with NUL bytes
	}
	p := &pyLitParser{s: s, noJSON: !json}
	if !p.leading() {
		return nil, false, nil
	}
	x, good := p.value()
	if !good {
		return nil, false, nil
	}
	p.skipInline()
	if p.peek() == ',' {
		items := pyTuple{x}
		for p.peek() == ',' {
			p.i++
			p.skipInline()
			if p.i == len(p.s) || p.s[p.i] == '\n' || p.s[p.i] == '\r' || p.s[p.i] == '#' {
				break // a trailing comma
			}
			e, good := p.value()
			if !good {
				return nil, false, nil
			}
			items = append(items, e)
			p.skipInline()
		}
		x = items
	}
	p.skip()
	if p.i != len(p.s) {
		return nil, false, nil
	}
	if p.hashErr != "" {
		return nil, false, typeErrorf("unhashable type: '%s'", p.hashErr)
	}
	if p.refused != "" {
		return nil, false, errorf("tender cannot convert template output holding %s into data (Ansible would)", p.refused)
	}
	v, err = pyLitValue(x)
	return v, err == nil, err
}

type (
	pyTuple []any
	pySet   []any
	pyOther string // a literal tender has no value for: bytes, complex, Ellipsis
	pyDict  struct{ keys, vals []any }
	// pyNum is a number as written (not the result of an operator), the
	// only operand literal_eval accepts under a sign.
	pyNum struct{ v any }
)

type pyLitParser struct {
	s       string
	i       int
	depth   int
	hashErr string // the first unhashable key or set element, in Python's order
	refused string // something Python converts that tender cannot
	noJSON  bool   // null, true and false are names, not literals
}

// maxLiteralNesting is the bracket depth Python's tokenizer accepts.
const maxLiteralNesting = 200

// skip passes whitespace (newlines too: the parser is always inside
// brackets or at the end), comments and line continuations.
func (p *pyLitParser) skip() { p.skipSpace(true) }

// skipInline is skip at the top level, outside brackets, where a newline
// ends the expression: it passes spaces, tabs, form feeds, a comment (up
// to its line's end) and line continuations.
func (p *pyLitParser) skipInline() { p.skipSpace(false) }

func (p *pyLitParser) skipSpace(newlines bool) {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; c {
		case ' ', '\t', '\f':
			p.i++
		case '\n', '\r':
			if !newlines {
				return
			}
			p.i++
		case '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' && p.s[p.i] != '\r' {
				p.i++
			}
		case '\\':
			if strings.HasPrefix(p.s[p.i+1:], "\r\n") {
				p.i += 3
			} else if p.i+1 < len(p.s) && (p.s[p.i+1] == '\n' || p.s[p.i+1] == '\r') {
				p.i += 2
			} else {
				return
			}
		default:
			return
		}
	}
}

// leading passes what Python's tokenizer allows before the first token:
// lines that are blank or hold only a comment, and line continuations. It
// is false when the first token is indented (an IndentationError).
func (p *pyLitParser) leading() bool {
	for p.i < len(p.s) {
		indented := false
	line:
		for ; p.i < len(p.s); p.i++ {
			switch p.s[p.i] {
			case ' ', '\t':
				indented = true
			case '\f':
				indented = false // a form feed resets the column
			default:
				break line
			}
		}
		if p.i == len(p.s) {
			return true
		}
		switch p.s[p.i] {
		case '\n', '\r', '#', '\\':
			at := p.i
			p.skipInline()
			if p.i < len(p.s) && p.s[p.i] == '\r' {
				p.i++
			}
			if p.i < len(p.s) && p.s[p.i] == '\n' {
				p.i++
			}
			if p.i == at {
				return false // a backslash that continues nothing
			}
		default:
			return !indented
		}
	}
	return true
}

func (p *pyLitParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// value parses one element: an atom, a signed number, or a number plus or
// minus an imaginary number (a complex literal).
func (p *pyLitParser) value() (any, bool) {
	var x any
	var ok bool
	if c := p.peek(); c == '-' || c == '+' {
		p.i++
		p.skip()
		var operand any
		if operand, ok = p.atom(); !ok {
			return nil, false
		}
		n, isNum := operand.(pyNum)
		if !isNum {
			return nil, false
		}
		x = negate(n.v, c == '-')
	} else if x, ok = p.atom(); !ok {
		return nil, false
	}
	p.skip()
	if c := p.peek(); c == '+' || c == '-' {
		// literal_eval's only binary operation: a real number plus or
		// minus an imaginary one
		p.i++
		p.skip()
		right, ok := p.atom()
		if !ok {
			return nil, false
		}
		if r, isNum := right.(pyNum); !isNum || r.v != pyOther("complex") {
			return nil, false
		}
		switch l := x.(type) {
		case pyNum:
			if l.v == pyOther("complex") {
				return nil, false
			}
		case int, *big.Int, float64:
		default:
			return nil, false
		}
		p.skip()
		if c := p.peek(); c == '+' || c == '-' {
			return nil, false
		}
		return pyOther("complex"), true
	}
	return x, true
}

func negate(v any, neg bool) any {
	if !neg {
		return v
	}
	switch n := v.(type) {
	case int, *big.Int:
		m, _ := negInt(n)
		return m
	case float64:
		return -n
	}
	return v // complex
}

// atom parses a literal that is not an operation.
func (p *pyLitParser) atom() (any, bool) {
	if p.i >= len(p.s) {
		return nil, false
	}
	c := p.s[p.i]
	switch {
	case c == '[' || c == '(' || c == '{':
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxLiteralNesting {
			return nil, false
		}
		p.i++
		switch c {
		case '[':
			items, _, ok := p.items(']')
			return items, ok
		case '(':
			items, comma, ok := p.items(')')
			if ok && len(items) == 1 && !comma {
				return items[0], true
			}
			return pyTuple(items), ok
		}
		return p.dictOrSet()
	case c == '\'' || c == '"':
		return p.strings()
	case c >= '0' && c <= '9' || c == '.' && p.i+1 < len(p.s) && isDigit(p.s[p.i+1]):
		return p.number()
	case c == '.':
		if strings.HasPrefix(p.s[p.i:], "...") {
			p.i += 3
			return pyOther("Ellipsis"), true
		}
		return nil, false
	case c == '_' || isLetter(c):
		start := p.i
		for p.i < len(p.s) && (p.s[p.i] == '_' || isLetter(p.s[p.i]) || isDigit(p.s[p.i])) {
			p.i++
		}
		if p.i < len(p.s) && p.s[p.i] >= 0x80 {
			return nil, false
		}
		name := p.s[start:p.i]
		if q := p.peek(); q == '\'' || q == '"' {
			p.i = start
			return p.strings()
		}
		switch name {
		case "True":
			return true, true
		case "False":
			return false, true
		case "None":
			return nil, true
		case "true", "false", "null":
			if p.noJSON {
				return nil, false
			}
			if name == "null" {
				return nil, true
			}
			return name == "true", true
		case "set":
			p.skip()
			if p.peek() != '(' {
				return nil, false
			}
			p.i++
			p.skip()
			if p.peek() != ')' {
				return nil, false
			}
			p.i++
			return pySet{}, true
		}
	}
	return nil, false
}

// items parses comma-separated values up to closer; comma reports a
// trailing or separating comma (a one-item tuple).
func (p *pyLitParser) items(closer byte) ([]any, bool, bool) {
	out := []any{}
	comma := false
	for {
		p.skip()
		if p.peek() == closer {
			p.i++
			return out, comma, true
		}
		if len(out) > 0 && !comma {
			return nil, false, false
		}
		v, ok := p.value()
		if !ok {
			return nil, false, false
		}
		out = append(out, v)
		p.skip()
		comma = p.peek() == ','
		if comma {
			p.i++
		}
	}
}

func (p *pyLitParser) dictOrSet() (any, bool) {
	d := &pyDict{}
	var set pySet
	isSet := false
	for n := 0; ; n++ {
		p.skip()
		if p.peek() == '}' {
			p.i++
			break
		}
		if n > 0 {
			if p.peek() != ',' {
				return nil, false
			}
			p.i++
			p.skip()
			if p.peek() == '}' {
				p.i++
				break
			}
		}
		k, ok := p.value()
		if !ok {
			return nil, false
		}
		p.skip()
		if n == 0 {
			isSet = p.peek() != ':'
		}
		if isSet {
			p.checkHashable(k)
			set = append(set, k)
			continue
		}
		if p.peek() != ':' {
			return nil, false
		}
		p.i++
		p.skip()
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		p.checkHashable(k)
		d.keys, d.vals = append(d.keys, k), append(d.vals, v)
	}
	if isSet {
		return set, true
	}
	return d, true
}

// checkHashable records the first key Python could not hash.
func (p *pyLitParser) checkHashable(k any) {
	if p.hashErr != "" {
		return
	}
	switch t := k.(type) {
	case []any:
		p.hashErr = "list"
	case *pyDict:
		p.hashErr = "dict"
	case pySet:
		p.hashErr = "set"
	case pyTuple:
		for _, e := range t {
			p.checkHashable(e)
		}
	}
}

// strings parses adjacent string literals, concatenated as Python does.
func (p *pyLitParser) strings() (any, bool) {
	var b strings.Builder
	kind := ""
	for {
		start := p.i
		for p.i < len(p.s) && isLetter(p.s[p.i]) {
			p.i++
		}
		prefix := strings.ToLower(p.s[start:p.i])
		if q := p.peek(); q != '\'' && q != '"' || p.i-start > 2 {
			if kind == "" || p.i > start {
				return nil, false
			}
			p.i = start
			break
		}
		raw, k := false, "str"
		switch prefix {
		case "", "u":
		case "r":
			raw = true
		case "b":
			k = "bytes"
		case "br", "rb":
			raw, k = true, "bytes"
		case "f", "fr", "rf":
			k = "f"
		default:
			return nil, false
		}
		if kind != "" && (kind == "bytes") != (k == "bytes") {
			return nil, false // Python cannot mix bytes and str literals
		}
		if kind != "f" {
			kind = k
		}
		s, ok := p.quoted(raw)
		if !ok {
			return nil, false
		}
		b.WriteString(s)
		if b.Len() > maxSize {
			return nil, false
		}
		save := p.i
		p.skip()
		if c := p.peek(); c != '\'' && c != '"' && !isLetter(c) {
			p.i = save
			break
		}
	}
	switch kind {
	case "f":
		return pyOther("f-string"), false // not a literal: Python leaves the text
	case "bytes":
		return pyOther("bytes"), true
	}
	return b.String(), true
}

// quoted reads one quoted string body at p.i and processes its escapes.
func (p *pyLitParser) quoted(raw bool) (string, bool) {
	q := p.s[p.i]
	triple := strings.HasPrefix(p.s[p.i:], strings.Repeat(string(q), 3))
	delim := string(q)
	if triple {
		delim = strings.Repeat(delim, 3)
	}
	p.i += len(delim)
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", false
		}
		if strings.HasPrefix(p.s[p.i:], delim) {
			p.i += len(delim)
			return b.String(), true
		}
		c := p.s[p.i]
		if !triple && (c == '\n' || c == '\r') {
			return "", false
		}
		if c != '\\' {
			_, n := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteString(p.s[p.i : p.i+n])
			p.i += n
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", false
		}
		if raw {
			// a backslash keeps the next character (a quote does not end
			// the string) and both stay in the value
			_, n := utf8.DecodeRuneInString(p.s[p.i+1:])
			b.WriteString(p.s[p.i : p.i+1+n])
			p.i += 1 + n
			continue
		}
		if !p.escape(&b) {
			return "", false
		}
	}
}

// escape processes the escape sequence at p.i as Python's string literals
// do; unknown escapes keep their backslash.
func (p *pyLitParser) escape(b *strings.Builder) bool {
	switch p.s[p.i+1] {
	case '\n':
		p.i += 2
		return true
	case '\r':
		p.i += 2
		if p.peek() == '\n' {
			p.i++
		}
		return true
	case 'N':
		// \N{name} needs Unicode's table of names, which tender does not
		// carry: refused if the rest converts
		p.i += 2
		end := strings.IndexByte(p.s[p.i:], '}')
		if p.peek() != '{' || end < 2 {
			return false
		}
		p.i += end + 1
		if p.refused == "" {
			p.refused = "a \\N{...} escape"
		}
		return true
	}
	n, problem := pyEscape(b, p.s[p.i+1:])
	switch {
	case problem != "":
		return false
	case n == 0:
		b.WriteByte('\\')
		p.i++
	default:
		p.i += 1 + n
	}
	return true
}
