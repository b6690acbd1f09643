package control

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/user"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// The text a dict option may be given as ("{...}" as JSON or as a Python
// literal) and the expansion of a path option, as ansible-core does them
// on the controller.

// argSpecMaxLiteralDepth bounds the nesting of a "{...}" text.
const argSpecMaxLiteralDepth = 100

// pyJSONLoads is json.loads of a text that must hold an object: strings
// come out as Python str, numbers with a point or an exponent as float,
// others as int.
func pyJSONLoads(s string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("extra data")
	}
	out, err := fromJSON(v, 0)
	if err != nil {
		return nil, err
	}
	m, ok := out.(map[string]any)
	if !ok {
		return nil, errors.New("not an object")
	}
	return m, nil
}

func fromJSON(v any, depth int) (any, error) {
	if depth > argSpecMaxLiteralDepth {
		return nil, errors.New("too deep")
	}
	switch x := v.(type) {
	case string:
		return shared.PyStr(x), nil
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return strconv.ParseFloat(string(x), 64)
		}
		return strconv.Atoi(string(x))
	case []any:
		for i, e := range x {
			c, err := fromJSON(e, depth+1)
			if err != nil {
				return nil, err
			}
			x[i] = c
		}
		return x, nil
	case map[string]any:
		for k, e := range x {
			c, err := fromJSON(e, depth+1)
			if err != nil {
				return nil, err
			}
			x[k] = c
		}
		return x, nil
	}
	return v, nil
}

// pyLiteralEval is ast.literal_eval of a text that must hold a dict:
// dicts with string keys, lists and tuples (as lists), strings, numbers,
// True, False and None. Sets, bytes, complex numbers and keys that are
// not strings are refused (tender's mappings have string keys).
func pyLiteralEval(s string) (map[string]any, error) {
	p := &literalParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, errors.New("trailing text")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a dict")
	}
	return m, nil
}

type literalParser struct {
	s string
	i int
}

func (p *literalParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r\f\v", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *literalParser) eat(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

var pyNumberLiteral = regexp.MustCompile(`^[+-]?\s*(0[xX][0-9a-fA-F](_?[0-9a-fA-F])*|0[oO][0-7](_?[0-7])*|0[bB][01](_?[01])*|([0-9](_?[0-9])*)?\.?[0-9]*(_?[0-9])*([eE][+-]?[0-9](_?[0-9])*)?)`)

func (p *literalParser) value(depth int) (any, error) {
	if depth > argSpecMaxLiteralDepth {
		return nil, errors.New("too deep")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errors.New("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		m := map[string]any{}
		for !p.eat('}') {
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			ks, ok := k.(shared.PyStr)
			if !ok {
				return nil, errors.New("a key that is not a string")
			}
			if !p.eat(':') {
				return nil, errors.New("expected ':'")
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m[string(ks)] = v
			if !p.eat(',') && !p.eat('}') {
				return nil, errors.New("expected ',' or '}'")
			} else if p.s[p.i-1] == '}' {
				break
			}
		}
		return m, nil
	case c == '[' || c == '(':
		end := byte(']')
		if c == '(' {
			end = ')'
		}
		p.i++
		l := []any{}
		for !p.eat(end) {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
			if !p.eat(',') && !p.eat(end) {
				return nil, fmt.Errorf("expected ',' or '%c'", end)
			} else if p.s[p.i-1] == end {
				break
			}
		}
		return l, nil
	case c == '\'' || c == '"':
		return p.str()
	}
	for _, w := range []struct {
		word string
		v    any
	}{{"True", true}, {"False", false}, {"None", nil}} {
		if strings.HasPrefix(p.s[p.i:], w.word) {
			p.i += len(w.word)
			return w.v, nil
		}
	}
	return p.number()
}

func (p *literalParser) number() (any, error) {
	m := pyNumberLiteral.FindString(p.s[p.i:])
	text := strings.ReplaceAll(strings.Join(strings.Fields(m), ""), "_", "")
	if strings.Trim(text, "+-.") == "" {
		return nil, errors.New("not a literal")
	}
	p.i += len(m)
	digits := strings.TrimLeft(text, "+-")
	if len(digits) > 1 && (digits[1] == 'x' || digits[1] == 'X' || digits[1] == 'o' || digits[1] == 'O' || digits[1] == 'b' || digits[1] == 'B') {
		n, err := strconv.ParseInt(text, 0, 64)
		return int(n), err
	}
	if strings.ContainsAny(text, ".eE") {
		return strconv.ParseFloat(text, 64)
	}
	n, err := strconv.Atoi(text)
	return n, err
}

// str reads a quoted Python string with the common escapes.
func (p *literalParser) str() (any, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return shared.PyStr(b.String()), nil
		case c == '\n':
			return nil, errors.New("newline in string")
		case c == '\\' && p.i+1 < len(p.s):
			n, _, tail, err := strconv.UnquoteChar(p.s[p.i:], q)
			if err != nil {
				return nil, err
			}
			b.WriteRune(n)
			p.i = len(p.s) - len(tail)
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteRune(r)
			p.i += size
		}
	}
	return nil, errors.New("unterminated string")
}

// argTypePath is ansible-core's check_type_path: str(), then
// os.path.expandvars and os.path.expanduser, on the controller (the
// validation runs there): $VAR and ${VAR} from tender's environment, ~ from
// HOME, ~user from the user database. Unknown variables and users stay.
func argTypePath(v any) (any, error) { return argTypePathUnder(nil, v) }

// argTypePathUnder is argTypePath seeing the controller as a sandbox
// shows it: only the environment variables it allows (the others stay
// as unknown ones do), ~ only from an allowed HOME and never from the
// user database. A nil sandbox shows everything.
func argTypePathUnder(sandbox *sandbox.Policy, v any) (any, error) {
	s, _ := argTypeStr(v)
	text, _ := shared.IsPyStr(s)
	return shared.PyStr(expandUser(expandVars(text, sandbox.LookupEnv), sandbox.LookupEnv, sandbox == nil)), nil
}

var envVarRef = regexp.MustCompile(`\$([A-Za-z0-9_]+|\{[^}]*\})`)

// expandVars is posixpath.expandvars, with the environment getenv
// shows.
func expandVars(path string, getenv func(string) (string, bool)) string {
	if !strings.Contains(path, "$") {
		return path
	}
	var out bytes.Buffer
	i := 0
	for i < len(path) {
		loc := envVarRef.FindStringSubmatchIndex(path[i:])
		if loc == nil {
			break
		}
		name := path[i+loc[2] : i+loc[3]]
		if strings.HasPrefix(name, "{") && strings.HasSuffix(name, "}") {
			name = name[1 : len(name)-1]
		}
		out.WriteString(path[i : i+loc[0]])
		if val, ok := getenv(name); ok {
			out.WriteString(val)
		} else {
			out.WriteString(path[i+loc[0] : i+loc[1]])
		}
		i += loc[1]
	}
	out.WriteString(path[i:])
	return out.String()
}

// expandUser is posixpath.expanduser, with HOME as getenv shows it and,
// when userDB is set, the user database for ~user and an unset HOME.
func expandUser(path string, getenv func(string) (string, bool), userDB bool) string {
	if !strings.HasPrefix(path, "~") {
		return path
	}
	i := strings.IndexByte(path[1:], '/') + 1
	if i == 0 {
		i = len(path)
	}
	var home string
	if i == 1 {
		if h, ok := getenv("HOME"); ok {
			home = h
		} else if !userDB {
			return path
		} else if u, err := user.Current(); err == nil {
			home = u.HomeDir
		} else {
			return path
		}
	} else {
		if !userDB {
			return path
		}
		u, err := user.Lookup(path[1:i])
		if err != nil {
			return path
		}
		home = u.HomeDir
	}
	home = strings.TrimRight(home, "/")
	if out := home + path[i:]; out != "" {
		return out
	}
	return "/"
}
