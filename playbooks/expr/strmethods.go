package expr

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// moreStrMethod implements the rest of Python's str methods that take
// and give text (padding, partitions, case tests): found is false for a
// name that is none of them.
func moreStrMethod(b *budget, s, name string, args []any) (v any, found bool, err error) {
	switch name {
	case "swapcase":
		return strings.Map(func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}, s), true, nil
	case "casefold":
		return cases.Fold().String(s), true, nil
	case "center", "ljust", "rjust":
		v, err := pad(b, s, name, args)
		return v, true, err
	case "zfill":
		if len(args) != 1 {
			return nil, true, typeErrorf("str.zfill() takes exactly one argument (%d given)", len(args))
		}
		w, ok := integer(args[0])
		if !ok {
			return nil, true, typeErrorf("'%s' object cannot be interpreted as an integer", typeName(args[0]))
		}
		n := utf8.RuneCountInString(s)
		if w <= n {
			return s, true, nil
		}
		if w > maxSize {
			return nil, true, errorf("string too large")
		}
		if err := b.alloc(int64(w)); err != nil {
			return nil, true, err
		}
		sign := ""
		if s != "" && (s[0] == '+' || s[0] == '-') {
			sign, s = s[:1], s[1:]
		}
		return sign + strings.Repeat("0", w-n) + s, true, nil
	case "partition", "rpartition":
		if len(args) != 1 {
			return nil, true, typeErrorf("str.%s() takes exactly one argument (%d given)", name, len(args))
		}
		sep, ok := text(args[0])
		if !ok {
			return nil, true, typeErrorf("must be str, not %s", typeName(args[0]))
		}
		if sep == "" {
			return nil, true, valueErrorf("empty separator")
		}
		i := strings.Index(s, sep)
		if name == "rpartition" {
			i = strings.LastIndex(s, sep)
		}
		switch {
		case i >= 0:
			return []any{s[:i], sep, s[i+len(sep):]}, true, nil
		case name == "partition":
			return []any{s, "", ""}, true, nil
		}
		return []any{"", "", s}, true, nil
	case "removeprefix", "removesuffix":
		if len(args) != 1 {
			return nil, true, typeErrorf("str.%s() takes exactly one argument (%d given)", name, len(args))
		}
		a, ok := text(args[0])
		if !ok {
			return nil, true, typeErrorf("%s() argument must be str, not %s", name, typeName(args[0]))
		}
		if name == "removeprefix" {
			return strings.TrimPrefix(s, a), true, nil
		}
		return strings.TrimSuffix(s, a), true, nil
	case "expandtabs":
		size := 8
		if len(args) > 0 {
			n, ok := integer(args[0])
			if !ok {
				return nil, true, typeErrorf("'%s' object cannot be interpreted as an integer", typeName(args[0]))
			}
			size = n
		}
		v, err := expandTabs(b, s, size)
		return v, true, err
	case "rfind", "index", "rindex":
		if len(args) == 0 {
			return nil, true, typeErrorf("%s() takes at least 1 argument (0 given)", name)
		}
		a, ok := text(args[0])
		if !ok {
			return nil, true, typeErrorf("must be str, not %s", typeName(args[0]))
		}
		i := strings.Index(s, a)
		if name != "index" {
			i = strings.LastIndex(s, a)
		}
		if i < 0 && name != "rfind" {
			return nil, true, valueErrorf("substring not found")
		}
		return runeIndex(s, i), true, nil
	}
	if test, ok := strTests[name]; ok {
		return test(s), true, nil
	}
	return nil, false, nil
}

// pad is str.center, ljust and rjust: width in characters, one fill
// character (a space by default); center puts the odd one on the left
// when the width is odd, as CPython does.
func pad(b *budget, s, name string, args []any) (any, error) {
	if len(args) == 0 || len(args) > 2 {
		return nil, typeErrorf("%s expected at least 1 argument, got %d", name, len(args))
	}
	w, ok := integer(args[0])
	if !ok {
		return nil, typeErrorf("'%s' object cannot be interpreted as an integer", typeName(args[0]))
	}
	fill := " "
	if len(args) == 2 {
		f, ok := text(args[1])
		if !ok {
			return nil, typeErrorf("%s() argument 2 must be str, not %s", name, typeName(args[1]))
		}
		if utf8.RuneCountInString(f) != 1 {
			return nil, typeErrorf("The fill character must be exactly one character long")
		}
		fill = f
	}
	n := utf8.RuneCountInString(s)
	if w <= n {
		return s, nil
	}
	if w > maxSize {
		return nil, errorf("string too large")
	}
	if err := b.alloc(int64(w * len(fill))); err != nil {
		return nil, err
	}
	marg := w - n
	left := 0
	switch name {
	case "rjust":
		left = marg
	case "center":
		left = marg/2 + (marg & w & 1)
	}
	return strings.Repeat(fill, left) + s + strings.Repeat(fill, marg-left), nil
}

// expandTabs is str.expandtabs: each tab up to the next multiple of size
// columns, the column starting again after a newline.
func expandTabs(b *budget, s string, size int) (string, error) {
	var out strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			if size > 0 {
				n := size - col%size
				if out.Len()+n > maxSize {
					return "", errorf("string too large")
				}
				if err := b.alloc(int64(n)); err != nil {
					return "", err
				}
				out.WriteString(strings.Repeat(" ", n))
				col += n
			}
		case '\n', '\r':
			out.WriteRune(r)
			col = 0
		default:
			out.WriteRune(r)
			col++
		}
	}
	return out.String(), nil
}

// strTests are str's is...() methods, as Python defines them on its
// Unicode categories (an empty string is none of them).
var strTests = map[string]func(s string) bool{
	"isalnum":   allRunes(func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }),
	"isdecimal": allRunes(func(r rune) bool { return unicode.Is(unicode.Nd, r) }),
	"isnumeric": allRunes(unicode.IsNumber),
	"isspace":   allRunes(unicode.IsSpace),
	"isascii":   func(s string) bool { return strings.IndexFunc(s, func(r rune) bool { return r > 127 }) < 0 },
	"isprintable": func(s string) bool {
		return strings.IndexFunc(s, func(r rune) bool { return !strconv.IsPrint(r) || r != ' ' && unicode.IsSpace(r) }) < 0
	},
	"islower": func(s string) bool { return cased(s, unicode.IsUpper, unicode.IsLower) },
	"isupper": func(s string) bool { return cased(s, unicode.IsLower, unicode.IsUpper) },
	"istitle": isTitle,
	"isidentifier": func(s string) bool {
		for i, r := range s {
			if !(r == '_' || unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r))) {
				return false
			}
		}
		return s != ""
	},
}

func allRunes(f func(rune) bool) func(string) bool {
	return func(s string) bool { return s != "" && strings.IndexFunc(s, func(r rune) bool { return !f(r) }) < 0 }
}

// cased is islower (or isupper): no character of the other case, and at
// least one of its own.
func cased(s string, other, own func(rune) bool) bool {
	seen := false
	for _, r := range s {
		if other(r) || unicode.IsTitle(r) {
			return false
		}
		seen = seen || own(r)
	}
	return seen
}

// isTitle is str.istitle: uppercase characters only after uncased ones,
// lowercase ones only after cased ones, and at least one cased.
func isTitle(s string) bool {
	prevCased, any := false, false
	for _, r := range s {
		switch {
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			if prevCased {
				return false
			}
			prevCased, any = true, true
		case unicode.IsLower(r):
			if !prevCased {
				return false
			}
			prevCased = true
		default:
			prevCased = false
		}
	}
	return any
}
