//go:build e2e

package packages

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// rhHost starts a fresh tender-e2e/rh container (a dnf host, see
// docs/TESTING.md) with the local rpm repositories of e2e/fleet/rpmrepo.sh
// and returns an Env on it through docker exec.
func rhHost(t *testing.T, setup string) (*tasks.Env, *modtest.CountingConn) {
	t.Helper()
	fleet, _ := filepath.Abs("../../../e2e/fleet")
	fleetimage.Need(t, "tender-e2e/rh")
	fleetimage.NeedRPM(t)
	out, err := exec.Command("docker", "run", "-d", "--init", "--hostname", "rh",
		"-v", filepath.Join(fleet, "../.fleet/rpm")+":/srv/tender-rpm:ro",
		"tender-e2e/rh", "sleep", "infinity").CombinedOutput()
	if err != nil {
		t.Fatalf("docker run: %v\n%s", err, out)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("docker", "rm", "-f", id).Run() })
	env, cc := modtest.TestEnv(t, t.TempDir(), map[string]any{"ansible_pkg_mgr": "dnf"})
	cc.Conn = modtest.DockerConn(t, id)
	if setup != "" {
		if res, err := shared.Run(context.Background(), env, setup, nil); err != nil || res.ExitCode != 0 {
			t.Fatalf("setup: %v %s %s", err, res.Stdout, res.Stderr)
		}
	}
	cc.Runs = 0
	return env, cc
}

// dnfTransactions counts the transactions in the host's dnf history.
func dnfTransactions(t *testing.T, env *tasks.Env) int {
	t.Helper()
	out, err := shared.Run(context.Background(), env, `dnf -q history list 2>/dev/null | awk '$1 ~ /^[0-9]+$/' | wc -l`, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out.Stdout)))
	if err != nil {
		t.Fatalf("dnf history: %q", out.Stdout)
	}
	return n
}

// TestDnfBatchFleet: on fresh rh hosts, loops of installs (one item pulls
// in the next as a dependency), upgrades and removals done by Batch cost
// one round trip and one dnf transaction each (dnf's own history counts
// them), and give every item exactly the result Run gives item by item on
// an identical host, leaving the same rpm database.
func TestDnfBatchFleet(t *testing.T) {
	ctx := context.Background()
	setup := "dnf -y -q install tender-hello-1.0 tender-tool >/dev/null 2>&1"
	batched, cc := rhHost(t, setup)
	single, _ := rhHost(t, setup)
	steps := []struct {
		module string
		extra  tasks.Args
		names  []string
		check  bool
		txns   int
	}{
		{"dnf", nil, []string{"tender-app", "tender-hello", "tender-two"}, true, 0},
		{"yum", tasks.Args{"state": "removed"}, []string{"tender-tool", "tender-gone"}, true, 0},
		{"dnf", nil, []string{"tender-app", "tender-base", "tender-one", "tender-two", "tender-one"}, false, 1},
		{"yum", tasks.Args{"state": "latest"}, []string{"tender-hello", "tender-three", "tender-one"}, false, 2},
		{"dnf", tasks.Args{"state": "absent"}, []string{"tender-base", "tender-app", "tender-tool", "tender-gone"}, false, 1},
		{"dnf", tasks.Args{"state": "absent"}, []string{"tender-base", "tender-app"}, false, 0},
	}
	for _, s := range steps {
		m := rpmModule{tool: s.module}
		items := rpmItems(s.extra, s.names...)
		before := dnfTransactions(t, batched)
		batched.Check, single.Check = s.check, s.check
		cc.Runs = 0
		start := time.Now()
		got, ok, err := m.Batch(ctx, batched, items)
		took, trips := time.Since(start), cc.Runs
		if err != nil || !ok {
			t.Fatalf("%s %v: ok=%v err=%v", s.module, s.names, ok, err)
		}
		if n := dnfTransactions(t, batched) - before; trips != 1 || n != s.txns {
			t.Errorf("%s %v: %d round trips, %d dnf transactions; want 1 and %d", s.module, s.names, trips, n, s.txns)
		}
		start = time.Now()
		want, err := shared.RunEach(ctx, single, m, items)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %v: batched %v, item by item %v", s.module, s.names, took, time.Since(start))
		for i := range items {
			if g, w := rpmOutcome(got[i]), rpmOutcome(want[i]); g != w {
				t.Errorf("item %d %s:\nbatched      %s\nitem by item %s", i, s.names[i], g, w)
			}
		}
	}
	list := "rpm -qa --qf '%{NAME}-%{VERSION}-%{RELEASE}.%{ARCH}\\n' | grep ^tender | sort"
	a, _ := shared.Run(ctx, batched, list, nil)
	b, _ := shared.Run(ctx, single, list, nil)
	if string(a.Stdout) != string(b.Stdout) {
		t.Errorf("rpm databases differ\nbatched:\n%s\nitem by item:\n%s", a.Stdout, b.Stdout)
	}
}
