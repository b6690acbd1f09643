package provision

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/tender-sh/tender/internal/yaml11"
)

// hostFacts is a host's facts as a parse would make them: fresh maps and
// lists, differing from the other hosts' in the name and address only.
func hostFacts(name, addr string) map[string]any {
	return map[string]any{
		"hostname": yaml11.Unsafe(name),
		"devices": map[string]any{
			"sda": map[string]any{"size": yaml11.Unsafe("8.00 GB"), "partitions": map[string]any{
				"sda1": map[string]any{"start": yaml11.Unsafe("2048"), "holders": []any{}},
			}, "rotational": yaml11.Unsafe("1"), "sectors": 16777216},
		},
		"mounts": []any{
			map[string]any{"mount": yaml11.Unsafe("/"), "fstype": yaml11.Unsafe("ext4"), "size_total": 8.5e9},
		},
		"default_ipv4": map[string]any{"address": yaml11.Unsafe(addr), "interface": yaml11.Unsafe("eth0")},
		"python":       map[string]any{"version_info": []any{3, 11, 2, yaml11.Unsafe("final"), 0}, "type": nil},
	}
}

func sameMap(a, b any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func TestFactShareSharesEqualValues(t *testing.T) {
	var s factShare
	a, b := hostFacts("a", "10.0.0.1"), hostFacts("b", "10.0.0.2")
	s.share(a)
	s.share(b)
	for _, k := range []string{"devices", "python"} {
		if !sameMap(a[k], b[k]) {
			t.Errorf("%s: two hosts' equal facts are two maps, want one", k)
		}
	}
	if m, n := a["mounts"].([]any), b["mounts"].([]any); &m[0] != &n[0] {
		t.Errorf("mounts: two hosts' equal lists are two lists, want one")
	}
	if sameMap(a["default_ipv4"], b["default_ipv4"]) {
		t.Errorf("default_ipv4 differs between the hosts but is shared")
	}
	// Equal parts of unequal values are shared too.
	ia, ib := a["default_ipv4"].(map[string]any), b["default_ipv4"].(map[string]any)
	if ia["interface"] != ib["interface"] {
		t.Errorf("interface: %v vs %v", ia["interface"], ib["interface"])
	}
	// Nothing changed but what holds what.
	if want := hostFacts("a", "10.0.0.1"); !reflect.DeepEqual(a, want) {
		t.Errorf("host a's facts changed: %v, want %v", a, want)
	}
	if want := hostFacts("b", "10.0.0.2"); !reflect.DeepEqual(b, want) {
		t.Errorf("host b's facts changed: %v, want %v", b, want)
	}
}

func TestFactShareKeepsTypes(t *testing.T) {
	var s factShare
	pairs := [][2]any{
		{"x", yaml11.Unsafe("x")},     // plain vs marked text
		{1, 1.0},                      // int vs float
		{0.0, math.Copysign(0, -1)},   // 0 vs -0
		{nil, ""},                     // none vs empty
		{[]any{}, map[string]any{}},   // empty list vs empty map
		{true, yaml11.Unsafe("true")}, // bool vs text
		{map[string]any{"k": 1}, map[string]any{"j": 1}}, // keys differ
	}
	for i, p := range pairs {
		a := map[string]any{"v": []any{p[0]}}
		b := map[string]any{"v": []any{p[1]}}
		s.share(a)
		s.share(b)
		la, lb := a["v"].([]any), b["v"].([]any)
		if &la[0] == &lb[0] {
			t.Errorf("pair %d (%#v, %#v): shared as one value", i, p[0], p[1])
		}
		if reflect.TypeOf(la[0]) != reflect.TypeOf(p[0]) || reflect.TypeOf(lb[0]) != reflect.TypeOf(p[1]) {
			t.Errorf("pair %d: types became %T and %T", i, la[0], lb[0])
		}
	}
	// Numbers compare by their bits: a NaN is one (and stays a NaN).
	a, b := map[string]any{"v": []any{math.NaN()}}, map[string]any{"v": []any{math.NaN()}}
	s.share(a)
	s.share(b)
	if x := b["v"].([]any)[0].(float64); &a["v"].([]any)[0] != &b["v"].([]any)[0] || !math.IsNaN(x) {
		t.Errorf("lists holding NaN: shared %v, value %v", &a["v"].([]any)[0] == &b["v"].([]any)[0], x)
	}
}

func TestFactShareLeavesUnknownValues(t *testing.T) {
	var s factShare
	a := map[string]any{"v": map[string]any{"odd": []string{"x"}, "n": 1}}
	b := map[string]any{"v": map[string]any{"odd": []string{"x"}, "n": 1}}
	s.share(a)
	s.share(b)
	if sameMap(a["v"], b["v"]) {
		t.Error("maps holding a value share cannot compare were shared")
	}
}

// TestFactShareConcurrent shares the facts of many hosts at once, each
// holding one map twice, while the others read what they were given (go
// test -race checks that no write reaches a value once it is shared).
func TestFactShareConcurrent(t *testing.T) {
	var s factShare
	got := make([]map[string]any, 16)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := hostFacts("h", "10.0.1."+string(rune('a'+i)))
			f["alias"] = f["devices"]
			s.share(f)
			if _, err := json.Marshal(f); err != nil {
				t.Error(err)
			}
			got[i] = f
		}()
	}
	wg.Wait()
	for i, f := range got {
		if !sameMap(f["devices"], got[0]["devices"]) || !sameMap(f["alias"], f["devices"]) {
			t.Errorf("host %d: devices or its alias not shared", i)
		}
	}
	if n := s.factName("os_family"); n != "ansible_os_family" || s.factName("os_family") != n {
		t.Errorf("factName: %q", n)
	}
}

// TestFactShareFreesTheAnswer checks that the texts a host keeps no
// longer point into the answer they were parsed from (which would keep
// all of it alive).
func TestFactShareFreesTheAnswer(t *testing.T) {
	answer := strings.Repeat("x", 100) + "host-a eth0 10.0.0.9"
	inside := func(v any) bool {
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case yaml11.Unsafe:
			s = string(x)
		}
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		base := uintptr(unsafe.Pointer(unsafe.StringData(answer)))
		return p >= base && p < base+uintptr(len(answer))
	}
	f := map[string]any{
		"hostname":     yaml11.Unsafe(answer[100:106]),
		"default_ipv4": map[string]any{"interface": answer[107:111], "address": yaml11.Unsafe(answer[112:]), answer[107:111]: true},
		"odd":          map[string]any{"x": []string{"y"}, "name": answer[100:106]},
	}
	var s factShare
	s.share(f)
	ip := f["default_ipv4"].(map[string]any)
	for name, v := range map[string]any{"hostname": f["hostname"], "interface": ip["interface"], "address": ip["address"], "odd.name": f["odd"].(map[string]any)["name"]} {
		if inside(v) {
			t.Errorf("%s still points into the answer", name)
		}
	}
	for k := range ip {
		if inside(k) {
			t.Errorf("key %s still points into the answer", k)
		}
	}
	if ip["address"] != yaml11.Unsafe("10.0.0.9") || f["hostname"] != yaml11.Unsafe("host-a") {
		t.Errorf("texts changed: %v", f)
	}
}
