package expr

import (
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// number parses a Python number literal: decimal, 0x/0o/0b integers with
// underscores between digits, floats, and imaginary numbers (pyOther).
func (p *pyLitParser) number() (any, bool) {
	s := p.s
	start := p.i
	digits := func(ok func(byte) bool) bool {
		n := 0
		for p.i < len(s) && ok(s[p.i]) {
			p.i++
			n++
			if p.i+1 < len(s) && s[p.i] == '_' && ok(s[p.i+1]) {
				p.i++
			}
		}
		return n > 0
	}
	end := func(v any) (any, bool) {
		if p.i < len(s) && (s[p.i] == '_' || isLetter(s[p.i]) || isDigit(s[p.i]) || s[p.i] >= 0x80) {
			return nil, false
		}
		return pyNum{v}, true
	}
	if s[p.i] == '0' && p.i+1 < len(s) && strings.IndexByte("xXoObB", s[p.i+1]) >= 0 {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[s[p.i+1]|0x20]
		p.i += 2
		if p.i < len(s) && s[p.i] == '_' {
			p.i++
		}
		ds := p.i
		if !digits(func(c byte) bool {
			return isDigit(c) && int(c-'0') < base || base == 16 && (c|0x20) >= 'a' && (c|0x20) <= 'f'
		}) {
			return nil, false
		}
		n, err := parseInt(strings.ReplaceAll(s[ds:p.i], "_", ""), base)
		if err != nil {
			return end(pyOther("bigint"))
		}
		return end(n)
	}
	intPart := digits(isDigit)
	isFloat := false
	if p.i < len(s) && s[p.i] == '.' {
		p.i++
		isFloat = true
		if !digits(isDigit) && !intPart {
			return nil, false
		}
	}
	if p.i < len(s) && (s[p.i] == 'e' || s[p.i] == 'E') {
		p.i++
		if p.i < len(s) && (s[p.i] == '+' || s[p.i] == '-') {
			p.i++
		}
		if !digits(isDigit) {
			return nil, false
		}
		isFloat = true
	}
	lit := strings.ReplaceAll(s[start:p.i], "_", "")
	if p.i < len(s) && (s[p.i] == 'j' || s[p.i] == 'J') {
		p.i++
		return end(pyOther("complex"))
	}
	if !isFloat {
		if len(lit) > 1 && lit[0] == '0' && strings.Trim(lit, "0") != "" {
			return nil, false // leading zeros in a decimal integer
		}
		n, err := parseInt(lit, 10)
		if err != nil {
			return nil, false // Python's SyntaxError: more digits than it converts
		}
		return end(n)
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return nil, false
	}
	return end(f)
}

// pyLitValue turns a parsed literal into tender's values: tuples become
// lists, dict keys their str() (as in tender's dict displays); what tender
// has no value for is refused.
func pyLitValue(x any) (any, error) {
	switch t := x.(type) {
	case pyNum:
		return pyLitValue(t.v)
	case pyOther:
		if t == "bigint" {
			return nil, errorf("tender cannot convert template output holding an integer past its limit (%d digits) into data (Ansible would)", maxIntDigits)
		}
		return nil, errorf("tender cannot convert template output holding a Python %s value into data (Ansible would)", string(t))
	case pySet:
		return nil, errorf("tender cannot convert template output holding a Python set into data (Ansible would)")
	case pyTuple:
		return pyLitValue([]any(t))
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			v, err := pyLitValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *pyDict:
		out := pydict.NewBuilder(len(t.keys))
		for i, k := range t.keys {
			kv, err := pyLitValue(k)
			if err != nil {
				return nil, err
			}
			if _, isTuple := k.(pyTuple); isTuple {
				return nil, errorf("tender cannot convert template output holding a dict with a tuple key into data (Ansible would)")
			}
			v, err := pyLitValue(t.vals[i])
			if err != nil {
				return nil, err
			}
			out.Set(Str(kv), v)
		}
		return out.Map(), nil
	}
	return x, nil
}
