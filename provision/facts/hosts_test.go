package facts

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// envDiffers are environment variables that differ between two SSH
// sessions by nature: ansible asks for a terminal (SSH_TTY, TERM), each
// connection has its own client port, and $_ names the last command.
var envDiffers = map[string]bool{"SSH_TTY": true, "TERM": true, "SSH_CLIENT": true, "SSH_CONNECTION": true, "_": true}

// TestRealHostsAgainstAnsible compares tender's facts with ansible's setup
// module on the same real host (recorded by testdata/record-host.sh from a
// container of the e2e fleet): every fact tender produces must equal
// ansible's, after a JSON round trip of both, and ansible must have no
// fact tender lacks but those listed in notGathered.
//
// The two were taken seconds apart, so facts that change by the second
// are normalized before the comparison (normalize says how); lists whose
// order Ansible takes from a Python set or from the kernel's directory
// hash order are compared sorted.
func TestRealHostsAgainstAnsible(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/hosts/*")
	if len(dirs) == 0 {
		t.Fatal("no recorded hosts under testdata/hosts")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "script.out"))
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(dir, "setup.json"))
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			ours, err := Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			if env, ok := ours["env"].(map[string]any); ok {
				wenv, _ := want["ansible_env"].(map[string]any)
				for k := range envDiffers {
					delete(env, k)
					delete(wenv, k)
				}
			}
			got := Vars(ours)
			delete(got, "ansible_facts")
			for k, v := range got {
				g, w := roundTrip(t, v), want[k]
				if err := normalize(strings.TrimPrefix(k, "ansible_"), &g, &w); err != nil {
					t.Errorf("%s: %v", k, err)
					continue
				}
				if !reflect.DeepEqual(g, w) {
					t.Errorf("%s: tender %v, ansible %v", k, g, w)
				}
			}
			for k := range want {
				if _, ok := got[k]; !ok && !notGathered[k] {
					t.Errorf("%s: ansible has it, tender does not", k)
				}
			}
		})
	}
}

// notGathered are the facts setup returns that tender leaves out:
// Ansible's record of the Python it chose to run modules with.
var notGathered = map[string]bool{"discovered_interpreter_python": true}

// normalize makes a fact recorded seconds apart comparable:
//   - date_time: tender's clock must be within 5 minutes of ansible's, the
//     zone fields equal, and ansible's own value must be what tender's
//     formatting makes of ansible's instant; then ansible's stands for both;
//   - uptime_seconds: within 5 minutes, then equal;
//   - loadavg: the same keys, each within 1 + 50% (the load moves, and
//     /proc/loadavg has two decimals), then equal;
//   - memfree_mb, swapfree_mb and the free and used figures of memory_mb:
//     within 512 MiB, then equal (totals must match exactly);
//   - mounts: sorted by mount point, the available and used blocks, inodes
//     and bytes within 2% of the totals, then equal;
//   - interfaces, all_ipv*_addresses, virtualization_tech_*: sorted.
func normalize(k string, got, want *any) error {
	switch k {
	case "date_time":
		return normalizeDateTime(got, want)
	case "uptime_seconds":
		if d := num(*got) - num(*want); math.Abs(d) > 300 {
			return fmt.Errorf("uptime %v vs %v", *got, *want)
		}
		*got = *want
	case "loadavg":
		g, w := (*got).(map[string]any), (*want).(map[string]any)
		if len(g) != len(w) {
			return fmt.Errorf("keys %v vs %v", g, w)
		}
		for key, wv := range w {
			if a, b := num(g[key]), num(wv); math.Abs(a-b) > 1+0.5*math.Max(a, b) {
				return fmt.Errorf("%s %v vs %v", key, a, b)
			}
			g[key] = wv
		}
	case "memfree_mb", "swapfree_mb":
		if math.Abs(num(*got)-num(*want)) > 512 {
			return fmt.Errorf("%v vs %v", *got, *want)
		}
		*got = *want
	case "memory_mb":
		for _, p := range [][2]string{{"real", "free"}, {"real", "used"}, {"nocache", "free"}, {"nocache", "used"}, {"swap", "free"}, {"swap", "used"}, {"swap", "cached"}} {
			g, _ := (*got).(map[string]any)[p[0]].(map[string]any)
			w, _ := (*want).(map[string]any)[p[0]].(map[string]any)
			if g == nil || w == nil || math.Abs(num(g[p[1]])-num(w[p[1]])) > 512 {
				return fmt.Errorf("%s.%s: %v vs %v", p[0], p[1], g, w)
			}
			g[p[1]] = w[p[1]]
		}
	case "mounts":
		return normalizeMounts(got, want)
	case "interfaces", "all_ipv4_addresses", "all_ipv6_addresses", "virtualization_tech_guest", "virtualization_tech_host":
		sortList(*got)
		sortList(*want)
	}
	return nil
}

func normalizeDateTime(got, want *any) error {
	g, _ := (*got).(map[string]any)
	w, _ := (*want).(map[string]any)
	if g == nil || w == nil {
		return fmt.Errorf("missing: %v vs %v", *got, *want)
	}
	for _, key := range []string{"tz", "tz_dst", "tz_offset"} {
		if g[key] != w[key] {
			return fmt.Errorf("%s: %v vs %v", key, g[key], w[key])
		}
	}
	if math.Abs(num(g["epoch_int"])-num(w["epoch_int"])) > 300 {
		return fmt.Errorf("clocks %v and %v are more than 5 minutes apart", g["epoch_int"], w["epoch_int"])
	}
	at, err := time.Parse("2006-01-02T15:04:05.000000Z", w["iso8601_micro"].(string))
	if err != nil {
		return err
	}
	offset, ok := parseOffset(w["tz_offset"].(string))
	if !ok {
		return fmt.Errorf("tz_offset %v", w["tz_offset"])
	}
	ours := formatDateTime(at, offset, w["tz"].(string), w["tz_offset"].(string), w["tz_dst"].(string))
	if r := roundTripMap(ours); !reflect.DeepEqual(r, w) {
		return fmt.Errorf("ansible's instant formatted by tender: %v, ansible: %v", r, w)
	}
	*got = *want
	return nil
}

func normalizeMounts(got, want *any) error {
	g, _ := (*got).([]any)
	w, _ := (*want).([]any)
	byMount := func(l []any) {
		sort.Slice(l, func(i, j int) bool {
			return fmt.Sprint(l[i].(map[string]any)["mount"]) < fmt.Sprint(l[j].(map[string]any)["mount"])
		})
	}
	byMount(g)
	byMount(w)
	if len(g) != len(w) {
		return fmt.Errorf("%d mounts vs %d", len(g), len(w))
	}
	for i := range g {
		gm, wm := g[i].(map[string]any), w[i].(map[string]any)
		for _, p := range [][2]string{{"block_available", "block_total"}, {"block_used", "block_total"},
			{"inode_available", "inode_total"}, {"inode_used", "inode_total"}, {"size_available", "size_total"}} {
			if _, ok := wm[p[0]]; !ok {
				continue
			}
			if math.Abs(num(gm[p[0]])-num(wm[p[0]])) > 0.02*num(wm[p[1]]) {
				return fmt.Errorf("%v %s: %v vs %v", wm["mount"], p[0], gm[p[0]], wm[p[0]])
			}
			gm[p[0]] = wm[p[0]]
		}
	}
	return nil
}

func sortList(v any) {
	if l, ok := v.([]any); ok {
		sort.Slice(l, func(i, j int) bool { return fmt.Sprint(l[i]) < fmt.Sprint(l[j]) })
	}
}

func num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case string:
		f, _ := strconv.ParseFloat(x, 64)
		return f
	}
	return math.NaN()
}

func roundTripMap(v map[string]any) any {
	data, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

func roundTrip(t *testing.T, v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
