package expr

import (
	"fmt"
	"strconv"
	"strings"
)

// uniqueNoFallback is Ansible's unique filter's error when Jinja2's unique
// fails (cause) and the parameters given rule out Ansible's own version.
func uniqueNoFallback(cause string) error {
	return errorf("Jinja2's unique filter failed and we cannot fall back to Ansible's version as it does not support the parameters supplied. %s", cause)
}

// uniqueFilter is Ansible's unique filter: Jinja2's unique first (items
// kept by a hashable key: the attribute's value when attribute is given,
// lowercased unless case_sensitive is true); when that fails (an item or
// key that Python cannot hash, a value that is not iterable), Ansible's
// own version, which keeps each item not equal to one already kept, case
// sensitively, unless case_sensitive was given as false or an attribute
// was given, which it does not support.
func uniqueFilter(b *budget, x, caseSensitive, attribute any) (any, error) {
	strict := caseSensitive == false || Truthy(attribute)
	items, err := listOf(x)
	if err != nil {
		if strict {
			return nil, uniqueNoFallback(err.Error())
		}
		return nil, err
	}
	keys := make([]any, len(items))
	for i, it := range items {
		k := it
		if attribute != nil {
			if k, err = itemAttribute(it, attribute); err != nil {
				if strict {
					return nil, uniqueNoFallback(err.Error())
				}
				return nil, err
			}
		}
		keys[i] = sortKey(k, Truthy(caseSensitive))
		if _, ok := hashKey(keys[i]); !ok {
			if strict {
				return nil, uniqueNoFallback(fmt.Sprintf("unhashable type: '%s'", typeName(keys[i])))
			}
			return uniqueList(b, items, true)
		}
	}
	return uniqueByKey(b, items, keys)
}

// itemAttribute is Jinja2's attribute getter as unique uses it: attr split
// on dots, each part a key of a mapping or (all digits) an index of a
// list; a part that is missing is an error, as Ansible's strict undefined
// makes it.
func itemAttribute(v, attr any) (any, error) {
	for _, part := range strings.Split(Str(attr), ".") {
		switch t := v.(type) {
		case map[string]any:
			e, ok := t[part]
			if !ok {
				return nil, errorf("'%s' has no attribute '%s'", objName(v), part)
			}
			v = e
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 {
				return nil, errorf("'%s' has no attribute '%s'", objName(v), part)
			}
			if i >= len(t) {
				return nil, errorf("'%s' has no element %d", objName(v), i)
			}
			v = t[i]
		default:
			return nil, errorf("'%s' has no attribute '%s'", objName(v), part)
		}
	}
	return v, nil
}

// uniqueByKey keeps the first item of each key (every key hashable).
func uniqueByKey(b *budget, items, keys []any) ([]any, error) {
	out := []any{}
	seen := map[string]bool{}
	for i, it := range items {
		if err := b.tick(1); err != nil {
			return nil, err
		}
		h, _ := hashKey(keys[i])
		if !seen[h] {
			seen[h] = true
			out = append(out, it)
		}
	}
	return out, nil
}
