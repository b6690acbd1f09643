package expr

import "strings"

// attrOf is Jinja's attribute getter (make_attrgetter): the value at
// attr's dotted path in v (a part of digits indexes), v itself when attr
// is nil; a part that is missing fails as an undefined value fails.
func attrOf(v any, attr any) (any, error) {
	if attr == nil {
		return v, nil
	}
	r := getPath(v, Str(attr))
	if u, ok := r.(*undefined); ok {
		return nil, u.err()
	}
	return r, nil
}

// attrsOf is attrOf for each item, failing at the first item that lacks
// the attribute. A text attr with commas (sort's) names several
// attributes: each item's key is then the list of their values, as
// Jinja's make_multi_attrgetter makes it.
func attrsOf(items []any, attr any, multi, caseSensitive bool) ([]any, error) {
	var names []any
	if s, ok := text(attr); ok && multi && strings.Contains(s, ",") {
		for _, p := range strings.Split(s, ",") {
			names = append(names, p)
		}
	}
	keys := make([]any, len(items))
	for i, it := range items {
		if names == nil {
			v, err := attrOf(it, attr)
			if err != nil {
				return nil, err
			}
			keys[i] = sortKey(v, caseSensitive)
			continue
		}
		key := make([]any, len(names))
		for j, n := range names {
			v, err := attrOf(it, n)
			if err != nil {
				return nil, err
			}
			key[j] = sortKey(v, caseSensitive)
		}
		keys[i] = key
	}
	return keys, nil
}
