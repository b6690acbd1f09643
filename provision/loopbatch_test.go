package provision_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// fakePkg "installs" packages as empty files named after them in dir
// (state=absent removes them), one script for any number of names, and
// counts its calls. Its Batch does items with the same dir and state
// together.
type fakePkg struct{ runs, batches, trips *atomic.Int32 }

func (m fakePkg) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	m.runs.Add(1)
	res, err := m.apply(ctx, env, []tasks.Args{args})
	if err != nil {
		return tasks.Result{}, err
	}
	return res[0], nil
}

func (m fakePkg) Batch(ctx context.Context, env *tasks.Env, items []tasks.Args) ([]tasks.Result, bool, error) {
	m.batches.Add(1)
	for _, it := range items[1:] {
		if it["dir"] != items[0]["dir"] || it["state"] != items[0]["state"] {
			return nil, false, nil
		}
	}
	res, err := m.apply(ctx, env, items)
	return res, err == nil, err
}

// apply runs one script for every item, in order: an item that names a
// package an earlier item installed finds it there.
func (m fakePkg) apply(ctx context.Context, env *tasks.Env, items []tasks.Args) ([]tasks.Result, error) {
	var b strings.Builder
	absent := items[0]["state"] == "absent"
	for _, it := range items {
		p := transport.Quote(filepath.Join(fmt.Sprint(it["dir"]), fmt.Sprint(it["name"])))
		switch {
		case absent:
			fmt.Fprintf(&b, "if [ -e %s ]; then echo changed; rm -f %[1]s; else echo same; fi\n", p)
		default:
			fmt.Fprintf(&b, "if [ -e %s ]; then echo same; else echo changed; : >%[1]s; fi\n", p)
		}
	}
	m.trips.Add(1)
	res, err := env.Conn.Run(ctx, transport.Cmd{Script: b.String()})
	if err != nil {
		return nil, err
	}
	verdicts := strings.Fields(string(res.Stdout))
	if len(verdicts) != len(items) {
		return nil, fmt.Errorf("script said %q", res.Stdout)
	}
	out := make([]tasks.Result, len(items))
	for i, it := range items {
		out[i] = tasks.Result{Changed: verdicts[i] == "changed", Data: map[string]any{"pkg": it["name"]}}
	}
	return out, nil
}

// runOnlyPkg is fakePkg without Batch: the loop runs item by item.
type runOnlyPkg struct{ m fakePkg }

func (r runOnlyPkg) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	return r.m.Run(ctx, env, args)
}

type pkgCounts struct{ runs, batches, trips atomic.Int32 }

// withPkg registers fakePkg as "package" (or only its Run, when batch is
// false) with counts c.
func withPkg(c *pkgCounts, batch bool) func(*provision.Runner) {
	return func(r *provision.Runner) {
		m := fakePkg{&c.runs, &c.batches, &c.trips}
		reg := testModules()
		if batch {
			reg.Register("package", func() tasks.Module { return m })
		} else {
			reg.Register("package", func() tasks.Module { return runOnlyPkg{m} })
		}
		r.Modules = reg
	}
}

const batchPlay = `
- hosts: h1
  gather_facts: false
  tasks:
    - name: install
      package: name={{ item }} dir={{ dir }} state=present
      loop: [a, b, skipme, c, a]
      when: item != 'skipme'
      register: r
      changed_when: r.changed and item != 'c'
    - name: save
      copy:
        dest: "{{ dir }}/register.json"
        content: "{{ r | to_json }}"
    - name: remove
      package: name={{ item.n }} dir={{ dir }} state={{ item.s }}
      loop: [{n: a, s: absent}, {n: b, s: present}, {n: zz, s: absent}]
`

// TestLoopBatch: a Batcher module gets a loop's items in one call; the
// output, the stats and what register stores are those of the same loop
// run item by item. Items that differ in more than their names (the
// module says so) run one by one.
func TestLoopBatch(t *testing.T) {
	type run struct {
		out      string
		register any
		c        *pkgCounts
	}
	do := func(batch bool) run {
		dir := t.TempDir()
		c := &pkgCounts{}
		out, recap, err := play(t, fmt.Sprintf("h1 ansible_connection=local dir=%s\n", dir), batchPlay, withPkg(c, batch))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if s := recap.Stats["h1"]; s.Failed != 0 || s.Changed != 3 {
			t.Errorf("batch=%v: stats %+v\n%s", batch, s, out)
		}
		raw, err := os.ReadFile(filepath.Join(dir, "register.json"))
		if err != nil {
			t.Fatal(err)
		}
		var reg any
		if err := json.Unmarshal(raw, &reg); err != nil {
			t.Fatalf("%v: %s", err, raw)
		}
		if _, err := os.Stat(filepath.Join(dir, "a")); err == nil {
			t.Errorf("batch=%v: a was not removed", batch)
		}
		return run{out, reg, c}
	}
	one, all := do(false), do(true)
	if one.out != all.out {
		t.Errorf("output differs\n--- item by item\n%s\n--- batched\n%s", one.out, all.out)
	}
	if !reflect.DeepEqual(one.register, all.register) {
		t.Errorf("register differs\n--- item by item\n%v\n--- batched\n%v", one.register, all.register)
	}
	// Item by item: 4 runs for install (skipme skipped), 3 for remove.
	if n := one.c.trips.Load(); n != 7 {
		t.Errorf("item by item: %d round trips, want 7", n)
	}
	// Batched: one call for the 4 install items; the remove loop mixes
	// states, so Batch declines and its 3 items run one by one.
	if b, r, n := all.c.batches.Load(), all.c.runs.Load(), all.c.trips.Load(); b != 2 || r != 3 || n != 4 {
		t.Errorf("batched: %d Batch calls, %d Run calls, %d round trips; want 2, 3, 4", b, r, n)
	}
	for _, want := range []string{
		"changed: [h1] => (item=a)", "changed: [h1] => (item=b)", "skipping: [h1] => (item=skipme)",
		"ok: [h1] => (item=c)", "ok: [h1] => (item=a)",
	} {
		if !strings.Contains(all.out, want) {
			t.Errorf("batched output lacks %q\n%s", want, all.out)
		}
	}
	res, _ := all.register.(map[string]any)["results"].([]any)
	if len(res) != 5 {
		t.Fatalf("register holds %d results, want 5: %v", len(res), all.register)
	}
	if first := res[0].(map[string]any); first["pkg"] != "a" || first["item"] != "a" || first["changed"] != true {
		t.Errorf("first result %v", first)
	}
	if skipped := res[2].(map[string]any); skipped["skipped"] != true || skipped["item"] != "skipme" {
		t.Errorf("skipped result %v", skipped)
	}
}

// TestLoopBatchFallbacks: loops the engine does item by item although the
// module batches: an environment templated with the item (each item's
// connection differs), until:, a loop pause, a single item left by when:.
func TestLoopBatchFallbacks(t *testing.T) {
	for name, task := range map[string]string{
		"environment": "environment: {PKG: '{{ item }}'}",
		"until":       "until: r is not failed\n      register: r",
		"pause":       "loop_control: {pause: 0}",
		"when":        "when: item == 'b'",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			c := &pkgCounts{}
			pb := fmt.Sprintf("- hosts: h1\n  gather_facts: false\n  tasks:\n    - package: name={{ item }} dir={{ dir }}\n      loop: [a, b]\n      %s\n", task)
			out, recap, err := play(t, fmt.Sprintf("h1 ansible_connection=local dir=%s\n", dir), pb, withPkg(c, true))
			if err != nil || recap.Failed() {
				t.Fatalf("%v\n%s", err, out)
			}
			if b := c.batches.Load(); b != 0 {
				t.Errorf("%d Batch calls\n%s", b, out)
			}
			if r := c.runs.Load(); r == 0 {
				t.Errorf("no Run calls\n%s", out)
			}
		})
	}
}
