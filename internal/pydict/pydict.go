// Package pydict gives tender's dicts the key order of Python's: the order
// in which their keys were first inserted.
//
// Values that playbooks see are plain Go maps (map[string]any) everywhere in
// tender, and Go maps have no order. Rather than a second dict type that
// every consumer of a value would have to know, the order of a map is
// recorded beside it: producers that know an order (the YAML and JSON
// decoders, dict literals, combine, ...) call Record or build the map with a
// Builder, and consumers that iterate as Python would call Keys. A map with
// no record, or keys added since its record, iterates those keys sorted, so
// a producer that forgets to record loses only the order, never a key.
//
// The record is keyed by the map's identity (a Go map is a reference to one
// runtime object that never moves) and held weakly: when the map is garbage
// collected its record goes with it, and a new map that happens to reuse the
// address is never taken for the old one.
package pydict

import (
	"runtime"
	"slices"
	"sync"
	"unsafe"
	"weak"
)

// record is the order of one map, tied to it by a weak pointer.
type record struct {
	obj  weak.Pointer[byte]
	keys []string
}

// records maps a map object's address to its record.
var records sync.Map // uintptr -> *record

// object is the address of the runtime object behind m (a map value is a
// single pointer to it).
func object(m map[string]any) *byte {
	return *(**byte)(unsafe.Pointer(&m))
}

// find returns the record of m, if it has a live one.
func find(m map[string]any) *record {
	p := object(m)
	v, ok := records.Load(uintptr(unsafe.Pointer(p)))
	if !ok {
		return nil
	}
	r := v.(*record)
	if r.obj.Value() != p {
		// A map that lived at this address is gone; its cleanup has not
		// run yet.
		return nil
	}
	return r
}

// Record sets the order of m's keys to keys, the order in which they were
// inserted, and returns m. keys should hold each of m's keys once; keys
// that m lacks are skipped when iterating. A map with fewer than two keys,
// or whose keys are in sorted order, needs no record, and none is kept.
func Record(m map[string]any, keys []string) map[string]any {
	if len(m) < 2 || len(keys) < 2 {
		return m
	}
	if slices.IsSorted(keys) {
		if find(m) != nil {
			forget(m)
		}
		return m
	}
	keys = slices.Clip(keys)
	p := object(m)
	addr := uintptr(unsafe.Pointer(p))
	if r := find(m); r != nil {
		records.Store(addr, &record{obj: r.obj, keys: keys})
		return m
	}
	r := &record{obj: weak.Make(p), keys: keys}
	records.Store(addr, r)
	runtime.AddCleanup(p, drop, cleanupArg{addr: addr, obj: r.obj})
	return m
}

// forget removes m's record, so that m iterates sorted.
func forget(m map[string]any) {
	p := object(m)
	drop(cleanupArg{addr: uintptr(unsafe.Pointer(p)), obj: weak.Make(p)})
}

type cleanupArg struct {
	addr uintptr
	obj  weak.Pointer[byte]
}

// drop deletes the record at a.addr if it still belongs to a.obj's map.
func drop(a cleanupArg) {
	for {
		v, ok := records.Load(a.addr)
		if !ok || v.(*record).obj != a.obj {
			return
		}
		if records.CompareAndDelete(a.addr, v) {
			return
		}
	}
}

// Keys returns m's keys in insertion order: the recorded order of those
// keys that are still there, then any keys added since, sorted. A map with
// no record iterates sorted.
func Keys(m map[string]any) []string {
	if len(m) == 0 {
		return nil
	}
	var out []string
	if len(m) > 1 {
		if r := find(m); r != nil {
			out = make([]string, 0, len(m))
			for _, k := range r.keys {
				if _, ok := m[k]; ok {
					out = append(out, k)
				}
			}
			if len(out) == len(m) {
				return out
			}
		}
	}
	seen := len(out)
	var set map[string]bool
	if seen > 8 {
		set = make(map[string]bool, seen)
		for _, k := range out {
			set[k] = true
		}
	}
	for k := range m {
		if set != nil && set[k] || set == nil && seen > 0 && slices.Contains(out[:seen], k) {
			continue
		}
		out = append(out, k)
	}
	slices.Sort(out[seen:])
	return out
}

// Has reports whether m carries a recorded order (tests use it).
func Has(m map[string]any) bool { return len(m) > 1 && find(m) != nil }

// Like records, for dst, the order of src's keys (those dst has), followed
// by dst's other keys sorted, and returns dst. It is for maps built from
// another: a copy, a rendered or filtered dict.
func Like(dst, src map[string]any) map[string]any {
	if len(dst) < 2 || len(src) < 2 || find(src) == nil {
		return dst
	}
	return Record(dst, Keys(src))
}

// Set sets m[k] to v as Python's dict assignment does: a new key goes
// after m's other keys, a key already there keeps its place. It is for
// maps that grow one key at a time over a long life (a host's facts);
// each new key costs a copy of m's order.
func Set(m map[string]any, k string, v any) {
	if _, ok := m[k]; ok {
		m[k] = v
		return
	}
	keys := append(slices.Clip(Keys(m)), k)
	m[k] = v
	Record(m, keys)
}

// Builder builds a map in insertion order, as Python's dict assignment
// does: a key set again keeps its first place and takes the new value.
type Builder struct {
	m    map[string]any
	keys []string
}

// NewBuilder returns a Builder for about n keys.
func NewBuilder(n int) *Builder {
	return &Builder{m: make(map[string]any, n), keys: make([]string, 0, n)}
}

// Set sets key k to v.
func (b *Builder) Set(k string, v any) {
	if _, ok := b.m[k]; !ok {
		b.keys = append(b.keys, k)
	}
	b.m[k] = v
}

// Has reports whether k is set.
func (b *Builder) Has(k string) bool { _, ok := b.m[k]; return ok }

// Get returns k's value.
func (b *Builder) Get(k string) (any, bool) { v, ok := b.m[k]; return v, ok }

// Delete removes k.
func (b *Builder) Delete(k string) {
	if _, ok := b.m[k]; !ok {
		return
	}
	delete(b.m, k)
	b.keys = slices.DeleteFunc(b.keys, func(x string) bool { return x == k })
}

// Len is the number of keys set.
func (b *Builder) Len() int { return len(b.m) }

// Map returns the map with its order recorded. The Builder must not be
// used afterwards.
func (b *Builder) Map() map[string]any { return Record(b.m, b.keys) }
