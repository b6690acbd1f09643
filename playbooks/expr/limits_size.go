package expr

import (
	"math/big"
	"unsafe"
)

// How the memory an evaluation builds is counted (Limits.MaxBytes): every
// value an operation returns passes through built, which counts what of
// it is new. A value that is one of the operation's operands, lies inside
// one (a substring, a part of a list) or is one of their items (first,
// min, extract; see itemScan) is not new. Otherwise its own memory is: a string's
// bytes, 16 bytes an item of a list (its capacity), 64 bytes an entry of
// a dict, 8 bytes a word of a big integer. The items of a new list or
// dict were made by the operations that made them, and counted there;
// but when no operand is a collection (from_json, split, a literal read
// back from template output), nothing in the result can be shared, so it
// is counted whole, to any depth.

const (
	listItemBytes  = 16
	dictEntryBytes = 64
)

// built counts v, made by an operation from operands, against the
// evaluation's memory limit; deep allows counting v whole when no operand
// is a collection. The error names the template at n.
func (ev *evaluator) built(n node, v any, deep bool, operands ...any) error {
	if err := ev.st.b.alloc(newBytes(v, deep, operands)); err != nil {
		return ev.wrap(n, err)
	}
	return nil
}

// builtCall is built for a call's result: its operands are its arguments.
func (ev *evaluator) builtCall(n node, v any, deep bool, x any, args []any, kw map[string]any) error {
	ops := make([]any, 0, 1+len(args)+len(kw))
	ops = append(append(ops, x), args...)
	for _, a := range kw {
		ops = append(ops, a)
	}
	return ev.built(n, v, deep, ops...)
}

// newBytes is the memory of v that its operands do not hold.
func newBytes(v any, deep bool, operands []any) int64 {
	if isScalar(v) {
		return 0
	}
	for _, o := range operands {
		if !isScalar(o) {
			if _, isText := text(o); !isText {
				deep = false
			}
		}
		if holds(o, v) {
			return 0
		}
	}
	if !deep {
		// one of the items of an operand: what first, last, min, max,
		// random, extract and their kind return
		for _, o := range operands {
			if itemOf(o, v) {
				return 0
			}
		}
	}
	return sizeOf(v, deep, operands, 0)
}

// isScalar reports whether v holds no memory worth counting.
func isScalar(v any) bool {
	switch v.(type) {
	case nil, bool, int, float64, *undefined, omitValue:
		return true
	}
	return false
}

// sizeOf is v's own memory, and with deep that of everything it holds
// that is not part of an operand's text.
func sizeOf(v any, deep bool, operands []any, depth int) int64 {
	switch t := v.(type) {
	case []any:
		n := int64(cap(t)) * listItemBytes
		if deep && depth < maxDepth {
			for _, e := range t {
				n += sizeOf(e, deep, operands, depth+1)
			}
		}
		return n
	case map[string]any:
		n := int64(len(t)) * dictEntryBytes
		if deep && depth < maxDepth {
			for k, e := range t {
				n += int64(len(k)) + sizeOf(e, deep, operands, depth+1)
			}
		}
		return n
	case *big.Int:
		return int64(len(t.Bits())) * 8
	}
	s, ok := text(v)
	if !ok || s == "" || depth > 0 && inText(s, operands) {
		return 0
	}
	return int64(len(s))
}

// inText reports whether s lies in the text of one of the operands.
func inText(s string, operands []any) bool {
	for _, o := range operands {
		if t, ok := text(o); ok && within(s, t) {
			return true
		}
	}
	return false
}

// holds reports whether v is o, or lies inside o's own memory: a
// substring of o's text, a part of o's list, o's dict.
func holds(o, v any) bool {
	switch t := o.(type) {
	case []any:
		l, ok := v.([]any)
		return ok && cap(l) > 0 && cap(t) > 0 && inside(unsafe.Pointer(unsafe.SliceData(l[:cap(l)])), uintptr(cap(l))*listItemBytes,
			unsafe.Pointer(unsafe.SliceData(t[:cap(t)])), uintptr(cap(t))*listItemBytes)
	case map[string]any:
		m, ok := v.(map[string]any)
		return ok && mapID(m) == mapID(t)
	case *big.Int:
		return v == o
	}
	ot, ok := text(o)
	if !ok {
		return false
	}
	vt, ok := text(v)
	return ok && within(vt, ot)
}

// itemScan is how many items of an operand itemOf looks at: looking at
// them all would make a cheap operation repeated over a large dict
// (extract in a map) quadratic. Beyond it, only a list's first and last
// items are looked at, and an item of the rest is counted as new.
const itemScan = 1024

// itemOf reports whether v is one of the items of the list or the
// values of the dict o (or lies inside one).
func itemOf(o, v any) bool {
	switch t := o.(type) {
	case []any:
		if len(t) > itemScan {
			return holds(t[0], v) || holds(t[len(t)-1], v)
		}
		for _, e := range t {
			if holds(e, v) {
				return true
			}
		}
	case map[string]any:
		if len(t) > itemScan {
			return false
		}
		for _, e := range t {
			if holds(e, v) {
				return true
			}
		}
	}
	return false
}

// within reports whether s's bytes lie inside t's.
func within(s, t string) bool {
	return s != "" && t != "" && inside(unsafe.Pointer(unsafe.StringData(s)), uintptr(len(s)), unsafe.Pointer(unsafe.StringData(t)), uintptr(len(t)))
}

// inside reports whether the n bytes at p lie inside the m bytes at q.
func inside(p unsafe.Pointer, n uintptr, q unsafe.Pointer, m uintptr) bool {
	a, b := uintptr(p), uintptr(q)
	return a >= b && a+n <= b+m
}

// mapID is the address of the runtime object behind m.
func mapID(m map[string]any) uintptr { return *(*uintptr)(unsafe.Pointer(&m)) }
