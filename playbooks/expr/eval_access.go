package expr

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Attribute, item and slice access.

// pathOf renders the source path of an attribute/index chain for messages.
func pathOf(n node) string {
	switch n := n.(type) {
	case *nameNode:
		return n.name
	case *attrNode:
		return pathOf(n.x) + "." + n.name
	case *indexNode:
		if l, ok := n.idx.(*litNode); ok {
			return pathOf(n.x) + "[" + Repr(l.v) + "]"
		}
		return pathOf(n.x) + "[...]"
	}
	return "(expression)"
}

// getAttr is Jinja's x.name: a dict key, else undefined.
func getAttr(x any, name, path string) (any, error) {
	switch t := x.(type) {
	case *undefined:
		return t, nil
	case map[string]any:
		if v, ok := t[name]; ok {
			return v, nil
		}
	case attrHolder:
		if v, ok := t.attr(name); ok {
			return v, nil
		}
	case Scope:
		v, ok, err := t.Lookup(name)
		if err != nil || ok {
			return v, err
		}
	}
	return &undefined{name: path, msg: fmt.Sprintf("'%s' has no attribute '%s'", objName(x), name), obj: x, hasObj: true, key: name}, nil
}

// scopeAttr looks name up in x when x is a scope held as a value
// (hostvars[host].name), rendering the variable within the evaluation's
// budget; found is false when x is no such scope or has no such name.
func (ev *evaluator) scopeAttr(x any, name string) (v any, found bool, err error) {
	if _, isScope := x.(Scope); isScope {
		if s, ok := x.(nativeScope); ok {
			v, found, err = s.lookupNative(name, ev.st.b)
			return plain(v), found, err
		}
	}
	return nil, false, nil
}

// getItem is Jinja's x[k]: a dict key, a list or string index, else undefined.
func getItem(x, k any, path string) (any, error) {
	switch t := x.(type) {
	case *undefined:
		return t, nil
	case attrHolder, map[string]any, Scope:
		if s, ok := text(k); ok {
			return getAttr(x, s, path)
		}
	case []any, *groupTuple:
		l, _ := iterate(t)
		if i, ok := integer(k); ok {
			if i < 0 {
				i += len(l)
			}
			if i >= 0 && i < len(l) {
				return l[i], nil
			}
		}
	default:
		if s, ok := text(x); ok {
			if i, ok := integer(k); ok {
				r := []rune(s)
				if i < 0 {
					i += len(r)
				}
				if i >= 0 && i < len(r) {
					return string(r[i]), nil
				}
			}
		}
	}
	return &undefined{name: path, msg: fmt.Sprintf("'%s' has no attribute %s", objName(x), Repr(k)), obj: x, hasObj: true, key: k}, nil
}

func (ev *evaluator) evalSlice(n *sliceNode) (any, error) {
	x, err := ev.value(n.x)
	if err != nil {
		return nil, err
	}
	var idx [3]*int
	for i, p := range []node{n.lo, n.hi, n.step} {
		if p == nil {
			continue
		}
		v, err := ev.value(p)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		iv, ok := integer(v)
		if b, isBig := v.(*big.Int); isBig {
			// Python clamps a slice index to the sequence
			iv, ok = math.MaxInt, true
			if b.Sign() < 0 {
				iv = math.MinInt
			}
		}
		if !ok {
			return nil, ev.wrap(p, typeErrorf("slice indices must be integers or None or have an __index__ method"))
		}
		idx[i] = &iv
	}
	v, err := sliceValue(x, idx[0], idx[1], idx[2])
	if err != nil {
		return nil, ev.wrap(n, err)
	}
	return v, ev.built(n, v, false, x)
}

// sliceValue is Python's x[lo:hi:step] on lists and strings.
func sliceValue(x any, lo, hi, step *int) (any, error) {
	st := 1
	if step != nil {
		st = *step
	}
	if st == 0 {
		return nil, errorf("slice step cannot be zero")
	}
	var n int
	s, isStr := text(x)
	var runes []rune
	list, isList := x.([]any)
	switch {
	case isStr:
		runes = []rune(s)
		n = len(runes)
	case isList:
		n = len(list)
	default:
		return nil, typeErrorf("'%s' object is not subscriptable", typeName(x))
	}
	norm := func(p *int, def int) int {
		if p == nil {
			return def
		}
		i := *p
		if i < 0 {
			i += n
			if i < 0 {
				if st < 0 {
					return -1
				}
				return 0
			}
		}
		if i >= n {
			if st < 0 {
				return n - 1
			}
			return n
		}
		return i
	}
	var a, b int
	if st > 0 {
		a, b = norm(lo, 0), norm(hi, n)
	} else {
		a, b = norm(lo, n-1), norm(hi, -1)
	}
	var picked []int
	for i := a; (st > 0 && i < b) || (st < 0 && i > b); i += st {
		picked = append(picked, i)
	}
	if isStr {
		var sb strings.Builder
		for _, i := range picked {
			sb.WriteRune(runes[i])
		}
		return sb.String(), nil
	}
	out := make([]any, 0, len(picked))
	for _, i := range picked {
		out = append(out, list[i])
	}
	return out, nil
}
