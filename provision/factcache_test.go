package provision_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// The jsonfile cache writes what Ansible's writes (sorted keys, four
// spaces, mode 0600), reads it back, expires it by its file's age,
// removes a corrupt file saying so, and never writes outside its
// directory.
func TestJSONFileCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "made")
	c, err := provision.NewJSONFileCache(dir, "pre_", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]any{"b": 1, "a": []any{"x", "<y>"}, "_ansible_facts_gathered": true}
	if err := c.Set("web1", facts); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "pre_web1")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n    \"_ansible_facts_gathered\": true,\n    \"a\": [\n        \"x\",\n        \"<y>\"\n    ],\n    \"b\": 1\n}"
	if string(data) != want {
		t.Errorf("file:\n%s\nwant:\n%s", data, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	// A new cache (the next run) reads the file.
	c2, _ := provision.NewJSONFileCache(dir, "pre_", time.Hour)
	got, ok, err := c2.Get("web1")
	if err != nil || !ok || got["b"] != 1 || got["_ansible_facts_gathered"] != true {
		t.Fatalf("get: %v %v %v", got, ok, err)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(path, old, old)
	if _, ok, _ := c2.Get("web1"); !ok {
		t.Error("an entry read in this run expired during it")
	}
	c3, _ := provision.NewJSONFileCache(dir, "pre_", time.Hour)
	if _, ok, _ := c3.Get("web1"); ok {
		t.Error("an entry older than the timeout was read")
	}
	c4, _ := provision.NewJSONFileCache(dir, "pre_", 0)
	if _, ok, _ := c4.Get("web1"); !ok {
		t.Error("timeout 0 expired an entry")
	}
	os.WriteFile(filepath.Join(dir, "pre_bad"), []byte("{bad"), 0o600)
	if _, _, err := c4.Get("bad"); err == nil || !strings.Contains(err.Error(), "was corrupt") {
		t.Errorf("corrupt: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "pre_bad")); !os.IsNotExist(err) {
		t.Error("the corrupt file was kept")
	}
	for _, host := range []string{"../escape", "a/b", ".."} {
		if err := c4.Set(host, facts); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("written outside the cache directory: %v", entries)
	}
	if err := c4.Delete("web1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := c4.Get("web1"); ok {
		t.Error("a deleted entry was read")
	}
	if _, err := provision.NewJSONFileCache("", "", 0); err == nil || !strings.Contains(err.Error(), "requires the 'fact_caching_connection'") {
		t.Errorf("no dir: %v", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := provision.NewJSONFileCache(file, "", 0); err == nil {
		t.Error("a file was taken as the cache directory")
	}
}

// gathering = smart with a fact cache: the second run does not gather,
// and sees the first run's facts, cacheable set_fact's among them (not
// the others); --flush-cache gathers again; meta: clear_facts forgets
// the entry.
func TestFactCacheAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	inv, first := loadPlay(t, "a ansible_connection=local\n", `
- hosts: all
  gather_subset: [min]
  tasks:
    - set_fact: {kept: 1, cacheable: true}
    - set_fact: {dropped: 2}
`)
	_, second := loadPlay(t, "", `
- hosts: all
  tasks:
    - assert:
        that:
          - kept == 1
          - ansible_facts.kept == 1
          - dropped is undefined
          - ansible_distribution is defined
          - ansible_facts.distribution == ansible_distribution
          - gather_subset == ['min']
`)
	_, flushed := loadPlay(t, "", `
- hosts: all
  gather_subset: [min]
  tasks:
    - assert: {that: [kept is undefined]}
`)
	_, clear := loadPlay(t, "", `
- hosts: all
  gather_facts: false
  tasks:
    - meta: clear_facts
`)
	run := func(pb *playbooks.Playbook, flush bool) string {
		t.Helper()
		cache, err := provision.NewJSONFileCache(dir, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		r := &provision.Runner{Inventory: inv, Modules: testModules(), FactCache: cache, FlushCache: flush,
			Connections: transport.NewConnections().Add("local", local.Dialer{}),
			Defaults:    provision.PlayDefaults{Gathering: "smart"}, Events: report.Text(&out, false)}
		recap, err := r.Run(context.Background(), pb)
		if err != nil || recap.Failed() {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return out.String()
	}
	if out := run(first, false); !strings.Contains(out, "Gathering Facts") {
		t.Fatalf("first run did not gather:\n%s", out)
	}
	if out := run(second, false); strings.Contains(out, "Gathering Facts") {
		t.Fatalf("second run gathered:\n%s", out)
	}
	if out := run(flushed, true); !strings.Contains(out, "Gathering Facts") {
		t.Fatalf("--flush-cache did not gather:\n%s", out)
	}
	run(clear, false)
	if _, err := os.Stat(filepath.Join(dir, "a")); !os.IsNotExist(err) {
		t.Fatalf("meta: clear_facts left the entry: %v", err)
	}
}
