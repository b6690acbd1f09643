package tasks

import "github.com/tender-sh/tender/internal/yaml11"

// Marked values. A string that came from a managed host (a registered
// result, a fact, a file's content), from a lookup, or from `!unsafe`
// carries Ansible's "unsafe" mark: it is data and is never templated or
// evaluated again. The engine hands a module its arguments with their
// marks: a module that only uses a parameter as data reads it through
// Spec.Decode with a typed Kind (Str, Path, Int, ...), which gives plain
// Go values; a parameter a module evaluates (assert's that, debug's var)
// is declared Raw, kept as it came, and given back to Env.Condition or
// Env.Template, which refuse to evaluate a marked value or return it as
// it is. IsMarked, Text and Keep let a module look at a mark without
// losing it.

// IsMarked reports whether v is a marked string.
func IsMarked(v any) bool {
	_, ok := v.(yaml11.Unsafe)
	return ok
}

// HasMarks reports whether v is, or holds in its lists and dicts, a
// marked string.
func HasMarks(v any) bool { return yaml11.HasMark(v) }

// Text returns v's text when v is a string, marked or not.
func Text(v any) (string, bool) {
	switch s := v.(type) {
	case string:
		return s, true
	case yaml11.Unsafe:
		return string(s), true
	}
	return "", false
}

// Keep returns s marked when like is marked, else s: a string a module
// derives from a marked argument stays marked.
func Keep(like any, s string) any {
	if IsMarked(like) {
		return yaml11.Unsafe(s)
	}
	return s
}

// Plain returns v with every mark removed (lists and dicts copied where
// they change): the value as data, for a module that only stores or sends
// it.
func Plain(v any) any { return yaml11.Unmark(v) }
