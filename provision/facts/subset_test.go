package facts

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// subsetCase is one recorded answer of record-subsets.py: the parameters
// setup was given (a string, a list, or absent), and the names of the
// facts it returned, or its failure's message.
type subsetCase struct {
	GatherSubset any      `json:"gather_subset"`
	Filter       any      `json:"filter"`
	Names        []string `json:"names"`
	Fact         []any    `json:"gather_subset_fact"`
	Msg          string   `json:"msg"`
}

// TestSubsetAgainstAnsible applies Subset and Filter to tender's facts of
// each recorded host that has subsets.json (record-host.sh) and compares
// the names with those setup returned there for the same parameters,
// less the names tender never has (notGathered); for a failure, the
// message; and the gather_subset fact's value.
func TestSubsetAgainstAnsible(t *testing.T) {
	files, _ := filepath.Glob("testdata/hosts/*/subsets.json")
	if len(files) == 0 {
		t.Fatal("no recorded subsets.json under testdata/hosts")
	}
	for _, file := range files {
		dir := filepath.Dir(file)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "script.out"))
			if err != nil {
				t.Fatal(err)
			}
			all, err := Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var cases []subsetCase
			if err := json.Unmarshal(data, &cases); err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				name := fmt.Sprintf("gather_subset=%#v filter=%#v", c.GatherSubset, c.Filter)
				got, err := Subset(all, pyList(c.GatherSubset))
				if c.Msg != "" {
					if err == nil || err.Error() != c.Msg {
						t.Errorf("%s: error %v, Ansible's %q", name, err, c.Msg)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				got = Filter(got, pyList(c.Filter))
				var want []string
				for _, n := range c.Names {
					if !notGathered[n] {
						want = append(want, n)
					}
				}
				if names := setupNames(got); !reflect.DeepEqual(names, want) {
					t.Errorf("%s:\n  tender only:  %v\n  Ansible only: %v", name, minus(names, want), minus(want, names))
				}
				if gs, ok := got["gather_subset"]; ok && !reflect.DeepEqual(gs, c.Fact) {
					t.Errorf("%s: gather_subset %#v, Ansible's %#v", name, gs, c.Fact)
				}
			}
		})
	}
}

// pyList converts a recorded parameter as Ansible's list type does: a
// string split at commas, a list as it is, nothing as nil.
func pyList(v any) []string {
	switch x := v.(type) {
	case string:
		return strings.Split(x, ",")
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			out = append(out, e.(string))
		}
		return out
	}
	return nil
}

// setupNames are the names of facts as setup returns them, sorted.
func setupNames(f map[string]any) []string {
	var out []string
	for k := range Vars(f) {
		if k != "ansible_facts" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}

// TestSelectCollectors checks the collectors a gather_subset runs against
// ansible-core's collector_classes_from_gather_subset (on Linux, with
// setup's minimal_gather_subset), in cases whose order of exclusions and
// additions matters.
func TestSelectCollectors(t *testing.T) {
	allButUser := []string{"apparmor", "caps", "cmdline", "date_time", "distribution", "dns", "env", "fips", "local",
		"lsb", "pkg_mgr", "platform", "python", "selinux", "service_mgr", "ssh_pub_keys"}
	for _, c := range []struct {
		in   []string
		want []string
	}{
		{[]string{"!user", "!all"}, allButUser},
		{[]string{"!all", "!user"}, allButUser},
		{[]string{"!min", "user_id"}, []string{"user"}},
		{[]string{"all", "!min"}, []string{"caps", "chroot", "distribution", "facter", "fibre_channel_wwn", "hardware",
			"iscsi", "loadavg", "network", "nvme", "ohai", "platform", "ssh_pub_keys", "user", "virtual"}},
		{[]string{"!all", "!min", "!bogus", "processor"}, []string{"hardware", "platform"}},
		{[]string{"!all", "!min", "distribution", "!os_family"}, []string{"distribution"}},
		{[]string{"all", "!hardware", "devices"}, []string{"apparmor", "caps", "chroot", "cmdline", "date_time",
			"distribution", "dns", "env", "facter", "fibre_channel_wwn", "fips", "hardware", "iscsi", "loadavg", "local",
			"lsb", "network", "nvme", "ohai", "pkg_mgr", "platform", "python", "selinux", "service_mgr", "ssh_pub_keys",
			"user", "virtual"}},
		{[]string{"!all", "!min", "facter"}, []string{"facter"}},
	} {
		sel, err := selectCollectors(c.in)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for n := range sel {
			got = append(got, n)
		}
		sort.Strings(got)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, Ansible %v", c.in, got, c.want)
		}
	}
}

// TestEveryFactHasCollector checks that every fact Parse returns for the
// recorded hosts has the collector Ansible returns it from, and that the
// tables name only collectors that exist.
func TestEveryFactHasCollector(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/hosts/*")
	for _, dir := range dirs {
		raw, err := os.ReadFile(filepath.Join(dir, "script.out"))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		ifaces := interfaceFacts(f)
		for k := range f {
			if !Unprefixed(k) && collectorOf(k, ifaces) == "" {
				t.Errorf("%s: fact %s has no collector", filepath.Base(dir), k)
			}
		}
	}
	for c := range collectorFacts {
		if sel := subsetIDs[c]; sel == nil || sel.name != c {
			t.Errorf("collectorFacts names %q, no collector", c)
		}
	}
	for _, c := range collectors {
		for _, r := range c.requires {
			if subsetIDs[r] == nil || subsetIDs[r].name != r {
				t.Errorf("%s requires %q, no collector", c.name, r)
			}
		}
	}
	for _, m := range minimalSubset {
		if subsetIDs[m] == nil {
			t.Errorf("minimal subset %q is no collector", m)
		}
	}
}

// TestSubsetKeepsInput checks that Subset leaves its input alone and
// records what was asked.
func TestSubsetKeepsInput(t *testing.T) {
	all := map[string]any{"os_family": "Debian", "mounts": []any{}, "eth0": map[string]any{}, "interfaces": []any{"eth0"}}
	got, err := Subset(all, []string{"!all", "!min", "network"})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 {
		t.Errorf("input changed: %v", all)
	}
	want := map[string]any{"os_family": "Debian", "eth0": map[string]any{}, "interfaces": []any{"eth0"},
		"gather_subset": []any{"!all", "!min", "network"}, "module_setup": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	got, _ = Subset(all, nil)
	if !reflect.DeepEqual(got["gather_subset"], []any{"all"}) {
		t.Errorf("gather_subset %v for none given", got["gather_subset"])
	}
}
