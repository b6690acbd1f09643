package packages

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// fakeRPMHost is a host with the fake rpm and dnf (and yum) of
// rpm_test.go: repo and inst map names to versions, requires a name to
// the names it needs.
type fakeRPMHost struct {
	repo, inst map[string]string
	requires   map[string][]string
}

// env returns an Env on a new such host, its round trip counter and the
// fake tools' state directory.
func (h fakeRPMHost) env(t *testing.T) (*tasks.Env, *modtest.CountingConn, string) {
	t.Helper()
	bin, state := modtest.FakeTools(t, map[string]string{"rpm": fakeRPM, "dnf": fakeDNF, "yum": fakeDNF})
	write := func(dir, name, content string) {
		os.MkdirAll(filepath.Join(state, dir), 0o755)
		if err := os.WriteFile(filepath.Join(state, dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(state, "inst"), 0o755)
	for n, v := range h.repo {
		write("repo", n, v+"\n")
	}
	for n, v := range h.inst {
		write("inst", n, v+"\n")
	}
	for n, deps := range h.requires {
		write("requires", n, strings.Join(deps, "\n")+"\n")
	}
	env, cc := modtest.TestEnv(t, t.TempDir(), map[string]any{"ansible_pkg_mgr": "dnf"})
	env.Conn = modtest.FakeBinConn{Conn: cc, Dir: bin}
	return env, cc, state
}

var rpmRepo = map[string]string{
	"app": "1.0-1.noarch", "base": "1.0-1.noarch", "one": "1.0-1.noarch", "two": "1.0-1.noarch",
	"hello": "2.0-1.noarch",
}

// transactions counts the fake dnf's install, upgrade and remove calls
// (not the --assumeno ones, which only ask).
func transactions(log string) int {
	return len(regexp.MustCompile(`(?m)^-y .* (install|upgrade|remove) -- `).FindAllString(log, -1))
}

// rpmItems are a loop's items: extra with each name.
func rpmItems(extra tasks.Args, names ...string) []tasks.Args { return aptItems(extra, names...) }

func rpmOutcome(r tasks.Result) string {
	return fmt.Sprintf("changed=%v failed=%v msg=%q data=%v", r.Changed, r.Failed, r.Msg, r.Data)
}

// TestDnfBatch: a loop's dnf (or yum) items cost one round trip, one dnf
// call asking the repositories and one dnf transaction, and each item's result is exactly the one Run gives
// item by item on the same host: changed for its own packages, with the
// dependencies it pulled in or the packages that needed what it removed,
// and nothing for a package an earlier item already did.
func TestDnfBatch(t *testing.T) {
	deps := map[string][]string{"app": {"base"}}
	for _, c := range []struct {
		name    string
		module  string
		host    fakeRPMHost
		extra   tasks.Args
		names   []string
		check   bool
		changed []bool
		results [][]any // each item's results
		txns    int     // dnf transactions of the batch
	}{
		{"install", "dnf", fakeRPMHost{rpmRepo, map[string]string{"two": "1.0-1.noarch"}, nil}, nil,
			[]string{"one", "two", "hello", "one"}, false, []bool{true, false, true, false},
			[][]any{{"Installed: one-1.0-1.noarch"}, {}, {"Installed: hello-2.0-1.noarch"}, {}}, 1},
		{"a dependency an earlier item pulled in", "yum", fakeRPMHost{rpmRepo, nil, deps}, tasks.Args{"state": "installed"},
			[]string{"app", "base", "one"}, false, []bool{true, false, true},
			[][]any{{"Installed: app-1.0-1.noarch", "Installed: base-1.0-1.noarch"}, {}, {"Installed: one-1.0-1.noarch"}}, 1},
		{"a dependency installed first", "dnf", fakeRPMHost{rpmRepo, nil, deps}, nil,
			[]string{"base", "app"}, false, []bool{true, true},
			[][]any{{"Installed: base-1.0-1.noarch"}, {"Installed: app-1.0-1.noarch"}}, 1},
		{"remove what needs it too", "dnf", fakeRPMHost{rpmRepo, map[string]string{"app": "1.0-1.noarch", "base": "1.0-1.noarch", "one": "1.0-1.noarch"}, deps},
			tasks.Args{"state": "absent"}, []string{"base", "app", "one", "nosuch"}, false, []bool{true, false, true, false},
			[][]any{{"Removed: app-1.0-1.noarch", "Removed: base-1.0-1.noarch"}, {}, {"Removed: one-1.0-1.noarch"}, {}}, 1},
		{"latest", "dnf", fakeRPMHost{rpmRepo, map[string]string{"hello": "1.0-1.noarch", "one": "1.0-1.noarch"}, nil}, tasks.Args{"state": "latest"},
			[]string{"one", "hello", "two"}, false, []bool{false, true, true},
			[][]any{{}, {"Installed: hello-2.0-1.noarch", "Removed: hello-1.0-1.noarch"}, {"Installed: two-1.0-1.noarch"}}, 2},
		{"nothing to do", "dnf", fakeRPMHost{rpmRepo, map[string]string{"one": "1.0-1.noarch", "two": "1.0-1.noarch"}, nil}, nil,
			[]string{"one", "two"}, false, []bool{false, false}, [][]any{{}, {}}, 0},
		{"check mode", "dnf", fakeRPMHost{rpmRepo, map[string]string{"two": "1.0-1.noarch"}, deps}, nil,
			[]string{"app", "two", "app"}, true, []bool{true, false, true},
			[][]any{{"Installed: app"}, {}, {"Installed: app"}}, 0},
		{"check mode removal", "dnf", fakeRPMHost{rpmRepo, map[string]string{"two": "1.0-1.noarch"}, nil}, tasks.Args{"state": "removed"},
			[]string{"one", "two"}, true, []bool{false, true},
			[][]any{{}, {"Removed: two-1.0-1.noarch"}}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := rpmModule{tool: c.module}
			items := rpmItems(c.extra, c.names...)
			env, cc, state := c.host.env(t)
			env.Check = c.check
			got, ok, err := m.Batch(context.Background(), env, items)
			if err != nil || !ok {
				t.Fatalf("Batch: ok=%v err=%v", ok, err)
			}
			log := modtest.FakeLog(t, state)
			if cc.Runs != 1 || transactions(log) != c.txns {
				t.Errorf("%d round trips, %d transactions, want 1 and %d; dnf log:\n%s", cc.Runs, transactions(log), c.txns, log)
			}
			if strings.Count(log, "list available") > 1 || strings.Count(log, "check-update") > 1 {
				t.Errorf("more than one dnf call asked the repositories:\n%s", log)
			}
			env1, _, _ := c.host.env(t)
			env1.Check = c.check
			want, err := shared.RunEach(context.Background(), env1, m, items)
			if err != nil {
				t.Fatal(err)
			}
			for i := range items {
				if g, w := rpmOutcome(got[i]), rpmOutcome(want[i]); g != w {
					t.Errorf("item %d %s:\nbatched      %s\nitem by item %s", i, c.names[i], g, w)
				}
				if got[i].Changed != c.changed[i] || !reflect.DeepEqual(got[i].Data["results"], c.results[i]) {
					t.Errorf("item %d %s: changed=%v results=%v, want %v %v", i, c.names[i], got[i].Changed, got[i].Data["results"], c.changed[i], c.results[i])
				}
			}
		})
	}
}

// TestDnfBatchLeavesToRun: items that cannot be one transaction, or a
// package no repository has, come back ok=false with nothing installed
// (one probing round trip at most), for the engine to run one by one.
func TestDnfBatchLeavesToRun(t *testing.T) {
	env, cc, state := fakeRPMHost{rpmRepo, nil, nil}.env(t)
	if _, ok, err := (rpmModule{tool: "dnf"}).Batch(context.Background(), env, rpmItems(nil, "one", "nosuch", "two")); ok || err != nil {
		t.Errorf("a missing package: ok=%v err=%v", ok, err)
	}
	if log := modtest.FakeLog(t, state); cc.Runs != 1 || transactions(log) != 0 {
		t.Errorf("%d round trips; dnf log:\n%s", cc.Runs, log)
	}
	if entries, _ := os.ReadDir(filepath.Join(state, "inst")); len(entries) != 0 {
		t.Errorf("installed %v", entries)
	}
	for _, items := range [][]tasks.Args{
		{{"name": "one"}, {"name": "two", "state": "absent"}},
		{{"name": "one"}, {"name": "two", "enablerepo": "x"}},
		{{"name": "one"}, {"name": "/tmp/two.rpm"}},
		{{"name": "one"}, {"name": "two*"}},
		{{"name": "one"}, {"name": "@group"}},
		{{"name": "one"}, {"name": "two >= 1.0"}},
		{{"name": "one", "autoremove": true}, {"name": "two", "autoremove": true}},
		{{"name": "one"}, {"name": []any{}}},
		{{"name": "one"}, {"name": "two", "bogus": 1}},
	} {
		cc.Runs = 0
		if _, ok, err := (rpmModule{tool: "dnf"}).Batch(context.Background(), env, items); ok || err != nil || cc.Runs != 0 {
			t.Errorf("%v: ok=%v err=%v, %d round trips", items, ok, err, cc.Runs)
		}
	}
}

// TestRPMAttribute gives a merged transaction's packages to the items that
// caused them, from a verdict recorded on the rh fleet host.
func TestRPMAttribute(t *testing.T) {
	head := strings.Split(`verdict=ran
rc=0
installed=tender-app-1.0-1.noarch
installed=tender-base-1.0-1.noarch
installed=tender-one-1.0-1.noarch
req=tender-app	rpmlib(CompressedFileNames)
req=tender-app	rpmlib(FileDigests)
req=tender-app	tender-base
req=tender-base	rpmlib(FileDigests)
prov=tender-app	tender-app
prov=tender-base	tender-base
prov=tender-one	tender-one`, "\n")
	for _, c := range []struct {
		specs [][]string
		want  map[string]int
	}{
		{[][]string{{"tender-app"}, {"tender-base"}, {"tender-one"}}, map[string]int{"tender-app": 0, "tender-base": 0, "tender-one": 2}},
		{[][]string{{"tender-base"}, {"tender-app-1.0"}, {"tender-one"}}, map[string]int{"tender-app": 1, "tender-base": 0, "tender-one": 2}},
		{[][]string{{"tender-one", "tender-app"}}, map[string]int{"tender-app": 0, "tender-base": 0, "tender-one": 0}},
	} {
		if got := rpmAttribute(head, c.specs, false); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: %v, want %v", c.specs, got, c.want)
		}
	}
	removed := []string{"removed=a-1-1.noarch", "removed=b-1-1.noarch", "req=a\tb", "prov=b\tb", "prov=a\ta"}
	if got := rpmAttribute(removed, [][]string{{"b"}, {"a"}}, true); !reflect.DeepEqual(got, map[string]int{"a": 0, "b": 0}) {
		t.Errorf("removing: %v", got)
	}
}

func TestRPMMatches(t *testing.T) {
	for _, c := range []struct {
		spec, nevra string
		ok          bool
	}{
		{"tender-hello", "tender-hello-2.0-1.noarch", true},
		{"tender-hello-2.0", "tender-hello-2.0-1.noarch", true},
		{"tender-hello-2.0-1", "tender-hello-2.0-1.noarch", true},
		{"tender-hello-2.0-1.noarch", "tender-hello-2.0-1.noarch", true},
		{"tender-hello-1.0", "tender-hello-2.0-1.noarch", false},
		{"tender", "tender-hello-2.0-1.noarch", false},
		{"tender-hello", "tender-hello-x-2.0-1.noarch", false},
		{"bash-5.1", "bash-1:5.1-2.x86_64", true},
	} {
		if got := rpmMatches(c.spec, c.nevra); got != c.ok {
			t.Errorf("rpmMatches(%q, %q) = %v", c.spec, c.nevra, got)
		}
	}
}

// TestPackageBatchDnf: package hands a loop on a dnf host to dnf's Batch,
// one round trip and one transaction.
func TestPackageBatchDnf(t *testing.T) {
	env, cc, state := fakeRPMHost{rpmRepo, nil, nil}.env(t)
	res, ok, err := packageModule{}.Batch(context.Background(), env, rpmItems(tasks.Args{"state": "present"}, "one", "two", "hello"))
	if err != nil || !ok || len(res) != 3 {
		t.Fatalf("ok=%v err=%v %+v", ok, err, res)
	}
	for i, r := range res {
		if !r.Changed || len(r.Data["results"].([]any)) != 1 {
			t.Errorf("item %d: %+v", i, r)
		}
	}
	if log := modtest.FakeLog(t, state); cc.Runs != 1 || transactions(log) != 1 {
		t.Errorf("%d round trips; dnf log:\n%s", cc.Runs, log)
	}
}

// TestDnfMergeableOptions: items with an option whose transaction is not
// the items' one after the other run one by one.
func TestDnfMergeableOptions(t *testing.T) {
	for _, k := range rpmUnmerged {
		if _, ok := rpmMergeable("dnf", rpmItems(tasks.Args{k: true}, "one", "two")); ok {
			t.Errorf("items with %s were merged", k)
		}
	}
	if _, ok := rpmMergeable("dnf", rpmItems(tasks.Args{"exclude": "x", "releasever": "9"}, "one", "two")); !ok {
		t.Error("items with the same exclude and releasever were not merged")
	}
}
