package inventory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/internal/hostpattern"
)

const apiINI = `
[web]
web[1:3]
[db]
db1 ansible_group_priority=9
[prod:children]
web
db
[web:vars]
tier=web
`

func names(hs []*Host) string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Name)
	}
	return strings.Join(out, " ")
}

func TestRuntimeChanges(t *testing.T) {
	inv := New()
	if err := inv.ParseINI("api.ini", []byte(apiINI)); err != nil {
		t.Fatal(err)
	}
	h, err := inv.AddHost("new1", "web", "canary")
	if err != nil {
		t.Fatal(err)
	}
	if got := h.GroupNames(); !reflect.DeepEqual(got, []string{"canary", "prod", "web"}) {
		t.Errorf("group_names = %v", got)
	}
	if inv.Group("canary").Parents()[0].Name != "all" {
		t.Errorf("a new group must hang under all")
	}
	if _, err := inv.AddHost("loner"); err != nil {
		t.Fatal(err)
	}
	if got := names(inv.Group("ungrouped").Hosts()); got != "loner" {
		t.Errorf("ungrouped = %q", got)
	}
	inv.AddGroup("late")
	if err := inv.AddChild("late", "loner"); err != nil {
		t.Fatal(err)
	}
	if got := names(inv.Group("ungrouped").Hosts()); got != "" {
		t.Errorf("loner must leave ungrouped, got %q", got)
	}
	if err := inv.AddChild("web", "prod"); err == nil {
		t.Errorf("cycle accepted")
	}
	vars, err := inv.HostVars("new1")
	if err != nil || vars["tier"] != "web" {
		t.Errorf("new1 vars = %v, %v", vars, err)
	}
	want := map[string][]string{"all": {"new1", "loner", "web1", "web2", "web3", "db1"}}
	if got := inv.GroupsDict()["all"]; !reflect.DeepEqual(got, want["all"]) {
		t.Errorf("groups['all'] = %v", got)
	}
}

func TestPatternsTable(t *testing.T) {
	inv := New()
	if err := inv.ParseINI("api.ini", []byte(apiINI)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ pattern, want string }{
		{"all", "web1 web2 web3 db1"},
		{"prod:!db", "web1 web2 web3"},
		{"!db:prod", "web1 web2 web3"}, // ! applies after plain terms
		{"&web", "web1 web2 web3"},     // no plain term means all
		{"web[1:]", "web2 web3"},
		{"web[-2]", "web2"},
		{"web[1-2]", "web2 web3"}, // the old x-y subscript
		{"~WEB", ""},              // case-sensitive
		{"~(?i)WEB", "web1 web2 web3"},
		{"~web(?!2)\\d", "web1 web3"}, // Python's re: lookahead
		{"~(?P<c>[a-z])(?P=c)", ""},   // a backreference: no doubled letter
		{"~(web|db)(?=1)", "web1 db1"},
		{"web[123]", "!subscript"}, // subscript 123 of group web: Ansible's error
		{"web[5:0]", "!subscript"}, // an end of 0 is an index
		{"web[5:9]", ""},           // a slice past the end: nothing
		{"web[2:3]", "web3"},
		{"localhost", "localhost"},
		{"db1,web1", "db1 web1"},
	} {
		hs, err := inv.Hosts(c.pattern)
		var nm *NoMatchError
		var se *hostpattern.SubscriptError
		if c.want == "!subscript" {
			if !errors.As(err, &se) || err.Error() != "No hosts matched the subscripted pattern '"+c.pattern+"'" {
				t.Errorf("%q: got %q, %v; want the subscript error", c.pattern, names(hs), err)
			}
			continue
		}
		if c.want == "" {
			if !errors.As(err, &nm) {
				t.Errorf("%q: got %q, %v; want NoMatchError", c.pattern, names(hs), err)
			}
			continue
		}
		if err != nil || names(hs) != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.pattern, names(hs), err, c.want)
		}
	}
	hs, _ := inv.Hosts("prod")
	lim, err := inv.Limit(hs, "db*:web2")
	if err != nil || names(lim) != "web2 db1" {
		t.Errorf("limit: %q %v", names(lim), err)
	}
	if _, err := inv.Limit(hs, "nosuch"); err == nil || !strings.Contains(err.Error(), "nosuch matched no group or host") {
		t.Errorf("limit nosuch: %v", err)
	}
	if lh, _ := inv.Hosts("localhost"); !lh[0].Implicit {
		t.Errorf("localhost must be implicit")
	}
	if v, _ := inv.HostVars("localhost"); v["ansible_connection"] != "local" {
		t.Errorf("implicit localhost vars = %v", v)
	}
}

func TestHostListSource(t *testing.T) {
	inv, err := Load("a.example.com, b:2222,[::1]:22,")
	if err != nil {
		t.Fatal(err)
	}
	hs, _ := inv.Hosts("ungrouped")
	if names(hs) != "a.example.com b ::1" {
		t.Errorf("hosts = %q", names(hs))
	}
	if v, _ := inv.HostVars("b"); v["ansible_port"] != 2222 {
		t.Errorf("b vars = %v", v)
	}
}

func TestWarningsAndSource(t *testing.T) {
	inv := New()
	src := "g:\n  hosts:\n    h1:\n  extra: {a: 1}\nbad: [1]\nh1:\nweb-x:\n"
	if err := inv.ParseYAML("w.yml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(inv.Warnings(), "\n")
	for _, w := range []string{
		"w.yml: Skipping unexpected key (extra) in group (g)",
		"w.yml: Skipping 'bad' as this is not a valid group definition",
		"Found both group and host with same name: h1",
		"Invalid characters were found in group names but not replaced",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("warnings %q lack %q", got, w)
		}
	}
	if inv.Host("h1").Source != "w.yml" {
		t.Errorf("source = %q", inv.Host("h1").Source)
	}
	inv2, err := Load("testdata/dir_source/inv")
	if err != nil {
		t.Fatal(err)
	}
	if s := inv2.Host("s1").Source; s != "testdata/dir_source/inv/sub/hosts" {
		t.Errorf("source = %q", s)
	}
}

// TestConcurrentReads runs readers in parallel; run with -race.
func TestConcurrentReads(t *testing.T) {
	inv, err := Load("testdata/vars_files/hosts")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	for i := 0; i < 8; i++ {
		go func() {
			defer func() { done <- true }()
			for _, n := range []string{"w1", "d1", "localhost"} {
				if _, err := inv.HostVars(n); err != nil {
					t.Error(err)
				}
			}
			if _, err := inv.Hosts("all:localhost:!d1"); err != nil {
				t.Error(err)
			}
			if _, err := inv.List(); err != nil {
				t.Error(err)
			}
		}()
	}
	for i := 0; i < 8; i++ {
		<-done
	}
}

// BenchmarkAddHost measures adding hosts one at a time at run time, as a
// control plane registering a fleet does.
func BenchmarkAddHost(b *testing.B) {
	inv := New()
	for i := 0; i < b.N; i++ {
		if _, err := inv.AddHost(fmt.Sprintf("h%d", i), fmt.Sprintf("rack%d", i%50), "fleet"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGroupsDictFollowsChanges: the groups dict, made once and shared,
// is made again after every kind of change to hosts and groups.
func TestGroupsDictFollowsChanges(t *testing.T) {
	inv := New()
	if err := inv.ParseINI("a", []byte("[web]\nw1\n")); err != nil {
		t.Fatal(err)
	}
	check := func(step, group string, want ...string) {
		t.Helper()
		if got := inv.GroupsDict()[group]; !reflect.DeepEqual(got, want) {
			t.Errorf("after %s: groups[%q] = %q, want %q", step, group, got, want)
		}
		wantAny := make([]any, len(want))
		for i, h := range want {
			wantAny[i] = h
		}
		if got := inv.GroupsVar()[group]; !reflect.DeepEqual(got, wantAny) {
			t.Errorf("after %s: GroupsVar()[%q] = %v, want %v", step, group, got, wantAny)
		}
	}
	check("ParseINI", "web", "w1")
	if _, err := inv.AddHost("w2", "web"); err != nil {
		t.Fatal(err)
	}
	check("AddHost", "web", "w1", "w2")
	inv.AddGroup("db")
	check("AddGroup", "db", []string{}...)
	if err := inv.AddChild("db", "w1"); err != nil {
		t.Fatal(err)
	}
	check("AddChild", "db", "w1")
	if err := inv.ParseINI("b", []byte("[db]\nd1\n")); err != nil {
		t.Fatal(err)
	}
	check("a second ParseINI", "db", "w1", "d1")
}

// TestSetPlaybookDirAgainAndAtOnce: setting the directory already set
// reads nothing again, and runs of one playbook may set it at once while
// others read host variables.
func TestSetPlaybookDirAgainAndAtOnce(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "host_vars"), 0o755)
	os.WriteFile(filepath.Join(dir, "host_vars", "h1.yml"), []byte("colour: blue\n"), 0o644)
	inv := New()
	if _, err := inv.AddHost("h1"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := inv.SetPlaybookDir(dir); err != nil {
				t.Error(err)
			}
			if _, err := inv.HostVars("h1"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	// Read once: a file changed since is not read again for the same
	// directory.
	os.WriteFile(filepath.Join(dir, "host_vars", "h1.yml"), []byte("colour: red\n"), 0o644)
	if err := inv.SetPlaybookDir(dir); err != nil {
		t.Fatal(err)
	}
	if v, _ := inv.HostVars("h1"); v["colour"] != "blue" {
		t.Errorf("colour = %v, want blue (read when the directory was first set)", v["colour"])
	}
}
