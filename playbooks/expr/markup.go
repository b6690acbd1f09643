package expr

import (
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
)

// Jinja's Markup, as the escape, forceescape and safe filters make it
// (Ansible leaves autoescaping off, so output is never escaped by itself).

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#39;", "\"", "&#34;")

// escapeHTML is markupsafe's escape: Markup is returned as it is, anything
// else is its str() with &, <, >, ' and " replaced by entities.
func escapeHTML(v any) markup {
	if m, ok := v.(markup); ok {
		return m
	}
	return markup(htmlEscaper.Replace(Str(v)))
}

// markupArith is + (the other operand is escaped), % (the arguments are
// escaped) and * on Markup; ok is false when Markup is not involved.
func markupArith(op string, l, r any) (any, bool, error) {
	lm, lIs := l.(markup)
	rm, rIs := r.(markup)
	if !lIs && !rIs {
		return nil, false, nil
	}
	switch op {
	case "+":
		ls, lText := text(l)
		rs, rText := text(r)
		if !lText || !rText {
			return nil, false, nil
		}
		if !lIs {
			ls = string(escapeHTML(ls))
		}
		if !rIs {
			rs = string(escapeHTML(rs))
		}
		if len(ls)+len(rs) > maxSize {
			return nil, true, errorf("string too large")
		}
		return markup(ls + rs), true, nil
	case "%":
		if !lIs {
			return nil, false, nil
		}
		var args any
		switch t := r.(type) {
		case []any:
			esc := make([]any, len(t))
			for i, a := range t {
				esc[i] = escapeArg(a)
			}
			args = esc
		case map[string]any:
			esc := make(map[string]any, len(t))
			for k, a := range t {
				esc[k] = escapeArg(a)
			}
			args = pydict.Like(esc, t)
		default:
			args = escapeArg(r)
		}
		s, err := percentFormat(string(lm), args)
		return markup(s), true, err
	case "*":
		n, isInt := integer(r)
		s := lm
		if rIs {
			n, isInt = integer(l)
			s = rm
		}
		if !isInt {
			return nil, false, nil
		}
		if n <= 0 {
			return markup(""), true, nil
		}
		if len(s)*n > maxSize || n > maxSize {
			return nil, true, errorf("repeated string too large")
		}
		return markup(strings.Repeat(string(s), n)), true, nil
	}
	return nil, false, nil
}

// escapeArg escapes a format argument that is text; numbers stay numbers
// so that %d still formats them.
func escapeArg(v any) any {
	if _, ok := text(v); ok {
		return escapeHTML(v)
	}
	switch v.(type) {
	case nil, bool, int, float64:
		return v
	}
	return escapeHTML(v)
}
