package facts

import (
	"reflect"
	"sort"
	"testing"
)

// TestFilter checks Filter's rules on a small fact set: the ansible_
// prefix added to patterns without it, gather_subset and module_setup
// under their own names, the empty pattern and no patterns.
func TestFilter(t *testing.T) {
	facts := map[string]any{"os_family": 1, "kernel": 2, "gather_subset": 3, "module_setup": 4, "facter_x": 5, "eth0": 6}
	for _, c := range []struct {
		patterns []string
		want     []string
	}{
		{nil, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{""}, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{"x", ""}, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{"os*"}, []string{"os_family"}},
		{[]string{"ansible_os*"}, []string{"os_family"}},
		{[]string{"*"}, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{"ansible_*"}, []string{"eth0", "facter_x", "kernel", "os_family"}},
		{[]string{"gather_subset", "kernel"}, []string{"gather_subset", "kernel"}},
		{[]string{"facter*"}, nil}, // not prefixed, and the fact is ansible_facter_x
		{[]string{"ohai*"}, nil},
		{[]string{" kernel"}, nil},
		{[]string{"[!a]*"}, []string{"eth0", "facter_x", "gather_subset", "kernel", "module_setup", "os_family"}},
		{[]string{"[!g]*"}, []string{"eth0", "facter_x", "kernel", "module_setup", "os_family"}},
	} {
		got := Filter(facts, c.patterns)
		var names []string
		for k := range got {
			names = append(names, k)
		}
		sort.Strings(names)
		if !reflect.DeepEqual(names, c.want) {
			t.Errorf("Filter(%q) = %v, want %v", c.patterns, names, c.want)
		}
	}
}
