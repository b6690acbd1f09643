package expr

import "github.com/tender-sh/tender/internal/yaml11"

// Ansible's unsafe text overrides Python's str methods so that what they
// give is unsafe too, and so are its characters and slices: a method or
// filter of an unsafe string gives an unsafe result (AnsibleUnsafeText to
// type_debug and in Python's type errors), where the same on a plain
// string gives a str.

// unsafeMethods are the str methods AnsibleUnsafeText keeps unsafe.
var unsafeMethods = map[string]bool{
	"capitalize": true, "casefold": true, "center": true, "expandtabs": true, "format": true, "format_map": true,
	"join": true, "ljust": true, "lower": true, "lstrip": true, "partition": true, "removeprefix": true,
	"removesuffix": true, "replace": true, "rjust": true, "rpartition": true, "rsplit": true, "rstrip": true,
	"split": true, "splitlines": true, "strip": true, "swapcase": true, "title": true, "translate": true,
	"upper": true, "zfill": true,
}

// unsafeFilters are the filters whose Python keeps an unsafe string's
// class, through those methods, its characters or its slices (recorded
// from ansible-core 2.14.18).
var unsafeFilters = map[string]bool{
	"upper": true, "lower": true, "capitalize": true, "trim": true, "center": true, "replace": true,
	"truncate": true, "indent": true, "format": true, "urlencode": true, "reverse": true, "first": true,
	"last": true, "quote": true, "basename": true, "dirname": true, "random": true, "expanduser": true,
	"win_basename": true, "path_join": true, "regex_escape": true, "list": true, "shuffle": true,
	"sort": true, "unique": true,
}

// isUnsafeText reports whether x is an unsafe string.
func isUnsafeText(x any) bool {
	switch x.(type) {
	case yaml11.Unsafe, nativeUnsafe:
		return true
	}
	return false
}

// keepUnsafe is v, the result of an operation on x that keeps an unsafe
// string unsafe (keep), with its strings unsafe when x is one.
func keepUnsafe(x any, keep bool, v any) any {
	if !keep || !isUnsafeText(x) {
		return v
	}
	return unsafeDeep(v)
}
