//go:build e2e

package packages

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestAptBatchFleet: on fresh fleet hosts, a loop of three packages done
// by Batch costs one round trip and leaves the host as the three items
// run one by one with Run do (same packages, versions and manual marks),
// with the same per-item results; run again, it changes nothing.
func TestAptBatchFleet(t *testing.T) {
	ctx := context.Background()
	items := aptItems(nil, "hello", "tree", "pv")
	// host is a fresh fleet host with its apt cache made.
	host := func() (*tasks.Env, *modtest.CountingConn) {
		env, cc := modtest.TestEnv(t, t.TempDir(), nil)
		cc.Conn = modtest.DockerConn(t, modtest.FleetHost(t))
		if res, err := (aptModule{}).Run(ctx, env, tasks.Args{"update_cache": true}); err != nil || res.Failed {
			t.Fatalf("update: %v %+v", err, res)
		}
		cc.Runs = 0
		return env, cc
	}
	state := func(env *tasks.Env) string {
		out, err := shared.Run(ctx, env, "dpkg-query -W hello tree pv; apt-mark showmanual hello tree pv", nil)
		if err != nil {
			t.Fatal(err)
		}
		return string(out.Stdout)
	}
	batched, cc := host()
	start := time.Now()
	got, ok, err := aptModule{}.Batch(ctx, batched, items)
	took := time.Since(start)
	if err != nil || !ok {
		t.Fatalf("Batch: ok=%v err=%v", ok, err)
	}
	if cc.Runs != 1 {
		t.Errorf("Batch took %d round trips, want 1: %+v", cc.Runs, got)
	}
	single, _ := host()
	start = time.Now()
	want, err := shared.RunEach(ctx, single, aptModule{}, items)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("batched %v, item by item %v", took, time.Since(start))
	if g, w := summary(got), summary(want); !reflect.DeepEqual(g, w) {
		t.Errorf("batched\n%q\nitem by item\n%q", g, w)
	}
	for i := range got {
		if g, w := got[i].Data["cache_updated"], want[i].Data["cache_updated"]; g != w {
			t.Errorf("item %d: cache_updated %v, item by item %v", i, g, w)
		}
	}
	t.Logf("batched results: %q", summary(got))
	if g, w := state(batched), state(single); g != w || g == "" {
		t.Errorf("host after the batch:\n%s\nafter item by item:\n%s", g, w)
	}
	cc.Runs = 0
	start = time.Now()
	again, ok, err := aptModule{}.Batch(ctx, batched, items)
	took = time.Since(start)
	start = time.Now()
	if _, err := shared.RunEach(ctx, single, aptModule{}, items); err != nil {
		t.Fatal(err)
	}
	t.Logf("again: batched %v, item by item %v", took, time.Since(start))
	if err != nil || !ok || cc.Runs != 1 {
		t.Fatalf("again: ok=%v err=%v, %d round trips", ok, err, cc.Runs)
	}
	for i, r := range again {
		if r.Changed || r.Failed {
			t.Errorf("again, item %d: %+v", i, r)
		}
	}
	// An installed package marked automatic is marked manual by a task
	// that installs nothing, as Ansible's apt does; one marked manual
	// stays so.
	if _, err := shared.Run(ctx, single, "apt-mark auto tree >/dev/null", nil); err != nil {
		t.Fatal(err)
	}
	if res, err := (aptModule{}).Run(ctx, single, tasks.Args{"name": []any{"tree", "pv"}}); err != nil || res.Changed || res.Failed {
		t.Fatalf("present on an automatic package: %v %+v", err, res)
	}
	if out, err := shared.Run(ctx, single, "echo manual $(apt-mark showmanual tree pv), auto $(apt-mark showauto tree pv)", nil); err != nil || string(out.Stdout) != "manual pv tree, auto\n" {
		t.Errorf("marks after present: %q %v", out.Stdout, err)
	}
}
