package provision

import (
	"hash/maphash"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/tender-sh/tender/internal/yaml11"
)

// factShare lets the hosts of one run share the parts of their gathered
// facts that are equal: a fleet's hosts mostly run the same distribution
// on the same kind of machine, and their block devices, mounts, Python,
// command line, SELinux and AppArmor state, and most of their
// environment are the same values, each parsed into maps and lists of
// its own. Once a host's facts are final (parsed and marked), share
// replaces every list and map in them by an equal one another host
// already holds, when there is one. The values are never changed after
// that (a change to facts builds new maps), so sharing them is safe.
//
// It is also where the run keeps the variable names of facts
// (ansible_<name>), made once instead of once per host.
//
// Its tables live as long as the run and are bounded: past maxShared
// values or maxFactNames names, new ones are kept but not shared.
type factShare struct {
	mu    sync.Mutex
	seed  maphash.Seed
	nodes map[uint64][]any // shared lists and maps by their hash
	count int              // values in nodes
	names map[string]string
}

const (
	// maxShared bounds the values a run shares (about 60 bytes of table
	// each).
	maxShared = 1 << 18
	// maxFactNames bounds the fact names a run keeps made.
	maxFactNames = 1 << 14
	// maxShareDepth is how deep share looks: deeper values are kept as
	// they are (facts are a few levels deep).
	maxShareDepth = 16
)

// share replaces each value of facts, a host's own map, by an equal value
// another host's facts hold when there is one. facts itself stays the
// host's.
func (s *factShare) share(facts map[string]any) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nodes == nil {
		s.seed = maphash.MakeSeed()
		s.nodes = map[uint64][]any{}
	}
	for k, v := range facts {
		if nv, _, ok := s.intern(v, 0); ok {
			facts[k] = nv
		}
	}
	ownText(facts)
}

// intern returns the shared value equal to v (v itself when none is yet)
// and its hash; ok is false for a value share does not know how to
// compare (it is left as it is, and so is any list or map holding it).
// The lists and maps of v are changed in place to hold shared values: v
// is the caller's alone until intern returns (a list or map v holds twice,
// shared at its first sight, is not written at its second: its elements
// are shared already).
func (s *factShare) intern(v any, depth int) (out any, h uint64, ok bool) {
	switch t := v.(type) {
	case nil:
		return v, 0x9e3779b97f4a7c15, true
	case float64:
		// By its bits: -0 and 0 (equal numbers) are not the same fact.
		return v, maphash.Comparable(s.seed, math.Float64bits(t)), true
	case string, yaml11.Unsafe, bool, int, int64, uint64:
		return v, maphash.Comparable(s.seed, v), true
	case []any:
		if depth >= maxShareDepth {
			return v, 0, false
		}
		h = mix(0x51ed2701, uint64(len(t)))
		all := true
		for i, e := range t {
			ne, eh, eok := s.intern(e, depth+1)
			if !sameElem(ne, e) {
				t[i] = ne
			}
			all = all && eok
			h = mix(h, eh)
		}
		if !all {
			ownText(t)
			return v, 0, false
		}
		return s.lookup(t, h), h, true
	case map[string]any:
		if depth >= maxShareDepth {
			return v, 0, false
		}
		var sum uint64
		all := true
		for k, e := range t {
			ne, eh, eok := s.intern(e, depth+1)
			if !sameElem(ne, e) {
				t[k] = ne
			}
			all = all && eok
			// A sum of the entries' hashes: the same whatever the order
			// the map gives them in.
			sum += mix(maphash.String(s.seed, k), eh)
		}
		if !all {
			ownText(t)
			return v, 0, false
		}
		h = mix(mix(0x6a09e667, uint64(len(t))), sum)
		return s.lookup(t, h), h, true
	}
	return v, 0, false
}

// lookup returns the shared list or map equal to v, whose elements are
// already shared, recording v as the shared one when there is none.
func (s *factShare) lookup(v any, h uint64) any {
	for _, c := range s.nodes[h] {
		if sameNode(c, v) {
			return c
		}
	}
	ownText(v)
	if s.count < maxShared {
		s.nodes[h] = append(s.nodes[h], v)
		s.count++
	}
	return v
}

// ownText gives the texts of v, a list or map no other host holds yet
// (its text elements, its keys), memory of their own: a parse leaves each
// text a slice of the host's whole answer, which one such text would keep
// alive.
func ownText(v any) {
	switch t := v.(type) {
	case []any:
		for i, e := range t {
			if c, ok := cloneText(e); ok {
				t[i] = c
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		for _, k := range keys {
			e := t[k]
			if c, ok := cloneText(e); ok {
				e = c
			}
			delete(t, k)
			t[strings.Clone(k)] = e
		}
	}
}

func cloneText(v any) (any, bool) {
	switch t := v.(type) {
	case string:
		return strings.Clone(t), true
	case yaml11.Unsafe:
		return yaml11.Unsafe(strings.Clone(string(t))), true
	}
	return nil, false
}

// sameNode reports whether a and b, lists or maps whose elements are
// shared values, are equal: the same scalars, the same (identical) lists
// and maps.
func sameNode(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameElem(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !sameElem(e, f) {
				return false
			}
		}
		return true
	}
	return false
}

// sameElem reports whether two elements of shared lists or maps are the
// same: equal scalars of one type, or one list or map.
func sameElem(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		return len(x) == 0 || &x[0] == &y[0]
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case nil, string, yaml11.Unsafe, bool, int, int64, uint64:
		return a == b
	}
	return false
}

// factName is ansible_<name>, made once per run.
func (s *factShare) factName(name string) string {
	if s == nil {
		return "ansible_" + name
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n, ok := s.names[name]; ok {
		return n
	}
	n := "ansible_" + name
	if s.names == nil {
		s.names = map[string]string{}
	}
	if len(s.names) < maxFactNames {
		s.names[name] = n
	}
	return n
}

// mix combines two 64-bit hashes (a multiply-xorshift finalizer over
// both): only how evenly the shared values spread over the table depends
// on it, as every match is compared in full.
func mix(a, b uint64) uint64 {
	x := a ^ (b + 0x9e3779b97f4a7c15 + a<<6 + a>>2)
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
