package pydict

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

func TestBuilderKeepsInsertionOrder(t *testing.T) {
	b := NewBuilder(4)
	b.Set("zeta", 1)
	b.Set("alpha", 2)
	b.Set("mid", 3)
	b.Set("zeta", 4) // a key set again keeps its place
	m := b.Map()
	if got, want := Keys(m), []string{"zeta", "alpha", "mid"}; !slices.Equal(got, want) {
		t.Fatalf("Keys = %v, want %v", got, want)
	}
	if m["zeta"] != 4 {
		t.Fatalf("zeta = %v, want the last value 4", m["zeta"])
	}
}

func TestKeysOfChangedMap(t *testing.T) {
	m := Record(map[string]any{"c": 1, "a": 2, "b": 3}, []string{"c", "a", "b"})
	delete(m, "a")
	m["z"] = 0
	m["d"] = 0
	if got, want := Keys(m), []string{"c", "b", "d", "z"}; !slices.Equal(got, want) {
		t.Fatalf("Keys = %v, want %v (recorded keys still there, then new ones sorted)", got, want)
	}
}

func TestUnrecordedMapsAreSorted(t *testing.T) {
	m := map[string]any{"b": 1, "a": 2, "c": 3}
	if got, want := Keys(m), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Fatalf("Keys = %v, want %v", got, want)
	}
	if Has(m) {
		t.Fatal("a map nobody recorded has a record")
	}
	// A sorted order needs no record, and replaces an earlier one.
	Record(m, []string{"c", "b", "a"})
	if !Has(m) {
		t.Fatal("Record kept no record")
	}
	Record(m, []string{"a", "b", "c"})
	if Has(m) {
		t.Fatal("a sorted order kept a record")
	}
}

func TestLikeCopiesOrder(t *testing.T) {
	src := Record(map[string]any{"y": 1, "x": 2}, []string{"y", "x"})
	dst := Like(map[string]any{"x": 20, "y": 10, "w": 0}, src)
	if got, want := Keys(dst), []string{"y", "x", "w"}; !slices.Equal(got, want) {
		t.Fatalf("Keys = %v, want %v", got, want)
	}
}

func TestManyKeysPartlyRecorded(t *testing.T) {
	keys := []string{"k9", "k8", "k7", "k6", "k5", "k4", "k3", "k2", "k1", "k0"}
	m := map[string]any{}
	for _, k := range keys {
		m[k] = true
	}
	Record(m, keys)
	m["a"], m["b"] = 1, 2
	want := append(slices.Clone(keys), "a", "b")
	if got := Keys(m); !slices.Equal(got, want) {
		t.Fatalf("Keys = %v, want %v", got, want)
	}
}

func TestRecordsGoWithTheirMaps(t *testing.T) {
	count := func() int {
		n := 0
		records.Range(func(any, any) bool { n++; return true })
		return n
	}
	before := count()
	for i := 0; i < 1000; i++ {
		Record(map[string]any{"b": i, "a": i}, []string{"b", "a"})
	}
	if count() < before+1000 {
		t.Fatalf("records = %d, want at least %d", count(), before+1000)
	}
	runtime.GC()
	// New maps, perhaps at the addresses of the collected ones, never take
	// their order.
	for i := 0; i < 1000; i++ {
		if m := map[string]any{"b": i, "a": i}; Has(m) {
			t.Fatal("a new map has the record of a collected one")
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for count() > before+10 {
		if time.Now().After(deadline) {
			t.Fatalf("%d records of collected maps are still kept", count()-before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSetAppendsNewKeys(t *testing.T) {
	m := map[string]any{}
	for _, k := range []string{"qz_1", "qz_2", "qa_1", "a", "qz_1"} {
		Set(m, k, k+"!")
	}
	if got, want := Keys(m), []string{"qz_1", "qz_2", "qa_1", "a"}; !slices.Equal(got, want) {
		t.Errorf("Keys = %v, want %v", got, want)
	}
	Set(m, "qz_2", 2)
	if got := Keys(m); got[1] != "qz_2" || m["qz_2"] != 2 {
		t.Errorf("a key set again moved or kept its value: %v %v", got, m)
	}
	sorted := map[string]any{}
	Set(sorted, "a", 1)
	Set(sorted, "b", 2)
	Set(sorted, "c", 3)
	if got := Keys(sorted); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Keys = %v", got)
	}
}
