package inventory

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// iniValue converts one INI value as Ansible's INI plugin does: it tries
// Python's ast.literal_eval and keeps the text unchanged when that fails.
//
// Integers are exact at any size (a *big.Int past 64 bits), up to
// yaml11.MaxIntDigits digits: a longer decimal literal is not one Python
// reads (the text stays), a longer hexadecimal, octal or binary one is
// refused as tender refuses every integer that long.
//
// Deliberate differences, where Python's result has no JSON form or no Go
// value: complex numbers, sets, Ellipsis, integers past that limit, dict
// keys that are tuples or unhashable, and \N{NAME} escapes make tender
// keep the text as a string. (Ansible keeps the Python object and then
// fails when it prints or uses it.)
func iniValue(s string) any {
	v, err := literalEval(s)
	if err != nil {
		return s
	}
	return v
}

var errNotLiteral = errors.New("not a Python literal")

// maxNesting mirrors CPython's limit on nested brackets (200).
const maxNesting = 200

type pyParser struct {
	s     string
	i     int
	depth int
}

// literalEval evaluates s as ast.literal_eval does for the literals that
// have a JSON form: numbers, strings (any prefix but f), bytes, True, False,
// None, lists, tuples and dicts.
func literalEval(s string) (any, error) {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return nil, errNotLiteral
	}
	p := &pyParser{s: strings.TrimLeft(s, " \t")}
	v, err := p.testlist(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, errNotLiteral
	}
	return v, nil
}

func (p *pyParser) skipSpace() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; c {
		case ' ', '\t', '\f', '\n', '\r':
			p.i++
		case '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func (p *pyParser) peek() byte {
	p.skipSpace()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// testlist parses expr (',' expr)* [','] and makes a tuple (a []any) when a
// comma is present. close is the bracket that ends the list inside parens,
// or 0 at top level.
func (p *pyParser) testlist(close byte) (any, error) {
	if close == ')' && p.peek() == ')' {
		return []any{}, nil
	}
	first, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek() != ',' {
		return first, nil
	}
	items := []any{first}
	for p.peek() == ',' {
		p.i++
		if c := p.peek(); c == close || c == 0 {
			break
		}
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	return items, nil
}

func (p *pyParser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return errNotLiteral
	}
	return nil
}

// expr parses a unary-signed number or an atom.
func (p *pyParser) expr() (any, error) {
	c := p.peek()
	if c == '+' || c == '-' {
		p.i++
		v, err := p.atom()
		if err != nil {
			return nil, err
		}
		switch v.(type) {
		case int, *big.Int:
		case float64:
		default:
			return nil, errNotLiteral
		}
		if c == '-' {
			switch n := v.(type) {
			case int:
				if n == math.MinInt {
					v = new(big.Int).Neg(big.NewInt(math.MinInt))
				} else {
					v = -n
				}
			case *big.Int:
				v, _ = yaml11.IntValue(new(big.Int).Neg(n))
			case float64:
				v = -n
			}
		}
		return v, p.noBinary()
	}
	v, err := p.atom()
	if err != nil {
		return nil, err
	}
	return v, p.noBinary()
}

// noBinary rejects a following binary operator: literal_eval only allows
// complex sums, which tender does not represent.
func (p *pyParser) noBinary() error {
	switch p.peek() {
	case 0, ',', ')', ']', '}', ':':
		return nil
	}
	return errNotLiteral
}

func (p *pyParser) atom() (any, error) {
	c := p.peek()
	switch {
	case c == '(' || c == '[' || c == '{':
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		p.i++
		switch c {
		case '(':
			v, err := p.testlist(')')
			if err != nil || p.peek() != ')' {
				return nil, errNotLiteral
			}
			p.i++
			return v, nil
		case '[':
			return p.list()
		default:
			return p.dict()
		}
	case c >= '0' && c <= '9' || c == '.':
		return p.number()
	case c == '\'' || c == '"' || isIdentStart(c):
		return p.nameOrString()
	}
	return nil, errNotLiteral
}

func (p *pyParser) list() (any, error) {
	items := []any{}
	for {
		if p.peek() == ']' {
			p.i++
			return items, nil
		}
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		switch p.peek() {
		case ',':
			p.i++
		case ']':
		default:
			return nil, errNotLiteral
		}
	}
}

func (p *pyParser) dict() (any, error) {
	out := map[string]any{}
	for {
		if p.peek() == '}' {
			p.i++
			return out, nil
		}
		k, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.peek() != ':' {
			return nil, errNotLiteral // a set, or garbage
		}
		p.i++
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		ks, ok := jsonKey(k)
		if !ok {
			return nil, errNotLiteral
		}
		out[ks] = v
		switch p.peek() {
		case ',':
			p.i++
		case '}':
		default:
			return nil, errNotLiteral
		}
	}
}

// jsonKey turns a Python dict key into the string json.dumps writes.
func jsonKey(k any) (string, bool) {
	switch x := k.(type) {
	case string:
		return x, true
	case int:
		return strconv.Itoa(x), true
	case *big.Int:
		return x.String(), true
	case float64:
		return pyfmt.Float(x), true
	case bool:
		return strconv.FormatBool(x), true
	case nil:
		return "null", true
	}
	return "", false
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

var (
	reDecInt = regexp.MustCompile(`^(?:[1-9](?:_?[0-9])*|0+(?:_?0)*)$`)
	reHex    = regexp.MustCompile(`^0[xX](?:_?[0-9a-fA-F])+$`)
	reOct    = regexp.MustCompile(`^0[oO](?:_?[0-7])+$`)
	reBin    = regexp.MustCompile(`^0[bB](?:_?[01])+$`)
	reFloat  = regexp.MustCompile(`^(?:(?:[0-9](?:_?[0-9])*)?\.[0-9](?:_?[0-9])*(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[0-9](?:_?[0-9])*\.(?:[eE][+-]?[0-9](?:_?[0-9])*)?|[0-9](?:_?[0-9])*[eE][+-]?[0-9](?:_?[0-9])*)$`)
)

func (p *pyParser) number() (any, error) {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if isIdentChar(c) || c == '.' {
			p.i++
			continue
		}
		if (c == '+' || c == '-') && p.i > start && (p.s[p.i-1] == 'e' || p.s[p.i-1] == 'E') &&
			!strings.ContainsAny(p.s[start:p.i], "xXbBoO") {
			p.i++
			continue
		}
		break
	}
	lit := p.s[start:p.i]
	clean := strings.ReplaceAll(lit, "_", "")
	switch {
	case reDecInt.MatchString(lit):
		return parseInt(clean, 10)
	case reHex.MatchString(lit):
		return parseInt(clean[2:], 16)
	case reOct.MatchString(lit):
		return parseInt(clean[2:], 8)
	case reBin.MatchString(lit):
		return parseInt(clean[2:], 2)
	case reFloat.MatchString(lit) && lit != ".":
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil && !math.IsInf(f, 0) {
			return nil, errNotLiteral
		}
		return f, nil
	}
	return nil, errNotLiteral
}

func parseInt(s string, base int) (any, error) {
	n, err := strconv.ParseInt(s, base, 64)
	if err == nil {
		return int(n), nil
	}
	// past 64 bits, within the limit (at least a bit a digit): see iniValue
	if base == 10 && len(s) > yaml11.MaxIntDigits || len(strings.TrimLeft(s, "0")) > 4*yaml11.MaxIntDigits {
		return nil, errNotLiteral
	}
	b, ok := new(big.Int).SetString(s, base)
	if !ok {
		return nil, errNotLiteral
	}
	if v, ok := yaml11.IntValue(b); ok {
		return v, nil
	}
	return nil, errNotLiteral
}

func (p *pyParser) nameOrString() (any, error) {
	start := p.i
	for p.i < len(p.s) && isIdentChar(p.s[p.i]) {
		p.i++
	}
	name := p.s[start:p.i]
	if p.i < len(p.s) && (p.s[p.i] == '\'' || p.s[p.i] == '"') {
		return p.strings(name)
	}
	switch name {
	case "True":
		return true, nil
	case "False":
		return false, nil
	case "None":
		return nil, nil
	}
	return nil, errNotLiteral
}

// strings parses one or more adjacent string literals; prefix is the first
// literal's prefix, already consumed.
func (p *pyParser) strings(prefix string) (any, error) {
	var sb strings.Builder
	kind := -1 // 0 str, 1 bytes
	for {
		pl := strings.ToLower(prefix)
		var raw, bytes bool
		switch pl {
		case "", "u":
		case "r":
			raw = true
		case "b":
			bytes = true
		case "br", "rb":
			raw, bytes = true, true
		default:
			return nil, errNotLiteral // f-strings and invalid prefixes
		}
		k := map[bool]int{false: 0, true: 1}[bytes]
		if kind >= 0 && kind != k {
			return nil, errNotLiteral
		}
		kind = k
		if err := p.stringBody(&sb, raw, bytes); err != nil {
			return nil, err
		}
		p.skipSpace()
		start := p.i
		for p.i < len(p.s) && isIdentChar(p.s[p.i]) {
			p.i++
		}
		prefix = p.s[start:p.i]
		if p.i >= len(p.s) || p.s[p.i] != '\'' && p.s[p.i] != '"' {
			p.i = start
			break
		}
	}
	s := sb.String()
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s, nil
}
