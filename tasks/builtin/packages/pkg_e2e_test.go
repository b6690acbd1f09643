//go:build e2e

package packages

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// pkgVolatile matches what differs between two runs of apt-get on
// identical hosts: transfer speeds and times.
var pkgVolatile = regexp.MustCompile(`Fetched [^\n]*|\d+(\.\d+)? [kMG]?B/s|\(\d+(\.\d+)?s\)`)

// TestPkgFidelity runs testdata/pkg/tasks.yml with tender's modules on a
// fresh fleet host and compares every result with what ansible-core 2.14
// registered on another fresh host of the same image
// (testdata/pkg/ansible.json, recorded by testdata/gen_pkg.sh).
//
// Normalization, on both sides, on top of TestFidelity's:
// cache_update_time becomes TIME; apt-get's transfer speeds and "Fetched"
// lines become SPEED; an uploaded archive's path in unarchive's
// extract_results.cmd becomes TMPSRC, as its src does.
func TestPkgFidelity(t *testing.T) {
	var want map[string]map[string]any
	b, err := os.ReadFile("../testdata/pkg/ansible.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	id := modtest.FleetHost(t)
	files, _ := filepath.Abs("../testdata/files")
	env, _ := modtest.TestEnv(t, files, nil)
	env.Conn = modtest.DockerConn(t, id)
	scope := expr.NewVars(map[string]any{})
	seen := 0
	for _, task := range modtest.LoadTaskList(t, "../testdata/pkg/tasks.yml") {
		got := modtest.RunRecorded(t, env, scope, task)
		w, ok := want[task.Name]
		if !ok {
			t.Errorf("%s: not recorded; run testdata/gen_pkg.sh", task.Name)
			continue
		}
		seen++
		g, wn := pkgNormalize(got), pkgNormalize(w)
		for _, k := range knownPkgDiffs[task.Name] {
			delete(g, k)
			delete(wn, k)
		}
		if !reflect.DeepEqual(g, wn) {
			t.Errorf("%s:\n%s", task.Name, modtest.DescribeDiff(g, wn))
		}
	}
	t.Logf("%d tasks compared with ansible-core", seen)
}

// httpVolatile are response keys that differ between two runs: the
// time of the request, and the served file's mtime (the host made it when
// the recording or the test started).
var httpVolatile = []string{"date", "elapsed", "last_modified"}

// knownPkgDiffs are the keys of a task's result left out of the
// comparison, each for a stated reason.
var knownPkgDiffs = map[string][]string{
	// A refused connection reads as Python's errno text in Ansible and
	// as the transport's dial error in tender.
	"get_url_refused": {"msg"},
}

func pkgNormalize(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var c map[string]any
	json.Unmarshal(b, &c)
	for _, k := range httpVolatile {
		if _, ok := c[k]; ok {
			c[k] = "TIME"
		}
	}
	if _, ok := c["cache_update_time"]; ok {
		c["cache_update_time"] = "TIME"
	}
	for _, k := range []string{"stdout", "stderr"} {
		if s, ok := c[k].(string); ok {
			c[k] = pkgVolatile.ReplaceAllString(s, "SPEED")
			c[k+"_lines"] = shared.Lines(c[k].(string))
		}
	}
	if d, ok := c["diff"].(map[string]any); ok {
		if s, ok := d["prepared"].(string); ok {
			d["prepared"] = pkgVolatile.ReplaceAllString(s, "SPEED")
		}
	}
	if er, ok := c["extract_results"].(map[string]any); ok {
		if cmd, ok := er["cmd"].([]any); ok {
			for i, w := range cmd {
				m := map[string]any{"src": w}
				modtest.Staging(m, "src")
				cmd[i] = m["src"]
			}
		}
	}
	if s, ok := c["msg"].(string); ok {
		c["msg"] = pkgVolatile.ReplaceAllString(s, "SPEED")
	}
	return modtest.Normalize(c, "", "")
}

// TestAptRunLoop installs a loop's packages with one apt-get call on a
// fresh fleet host, and refuses items it cannot merge.
func TestAptRunLoop(t *testing.T) {
	id := modtest.FleetHost(t)
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	cc.Conn = modtest.DockerConn(t, id)
	env.Conn = cc
	if res := modtest.RunMod(t, env, "apt", tasks.Args{"update_cache": true}); res.Failed {
		t.Fatal(res.Msg)
	}
	items := []tasks.Args{{"name": "tender-hello"}, {"name": "hello"}}
	before := cc.Runs
	rs, ok, err := aptModule{}.RunLoop(context.Background(), env, items)
	if err != nil || !ok || len(rs) != 2 || !rs[0].Changed || !rs[1].Changed || cc.Runs != before+1 {
		t.Fatalf("first: ok=%v err=%v %+v (%d round trips)", ok, err, rs, cc.Runs-before)
	}
	if !strings.Contains(rs[0].Data["stdout"].(string), "tender-hello hello") && !strings.Contains(rs[0].Data["stdout"].(string), "hello tender-hello") {
		t.Errorf("not one apt-get for both: %s", rs[0].Data["stdout"])
	}
	rs, ok, _ = aptModule{}.RunLoop(context.Background(), env, append(items, tasks.Args{"name": "tree"}))
	if !ok || rs[0].Changed || rs[1].Changed || !rs[2].Changed {
		t.Errorf("second: %+v", rs)
	}
	if _, ok, _ = (aptModule{}).RunLoop(context.Background(), env, []tasks.Args{{"name": "pv"}, {"name": "pv", "state": "absent"}}); ok {
		t.Error("items with different states were merged")
	}
	if _, ok, _ = (aptModule{}).RunLoop(context.Background(), env, []tasks.Args{{"name": "pv"}, {"name": "no-such-package"}}); ok {
		t.Error("a loop with a missing package was merged")
	}
	if out, _ := exec.Command("docker", "exec", id, "dpkg-query", "-W", "pv").CombinedOutput(); !strings.Contains(string(out), "no packages found") {
		t.Errorf("a refused loop changed the host: %s", out)
	}
}
