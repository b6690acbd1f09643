package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fact_caching = jsonfile with gathering = smart: the second tender play
// does not gather and reads the first's cacheable fact; --flush-cache
// makes it gather; a cache tender does not have, or jsonfile without a
// directory, is refused before any host is touched.
func TestFactCachingSettings(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	cfg := filepath.Join(dir, "ansible.cfg")
	write := fileWriter(t, dir)
	write("hosts", "a ansible_connection=local\n")
	write("set.yml", "- hosts: all\n  gather_subset: [min]\n  tasks:\n    - set_fact: {kept: 7, cacheable: true}\n")
	write("use.yml", "- hosts: all\n  tasks:\n    - debug: msg=\"kept={{ kept | default('none') }}\"\n")
	t.Setenv("ANSIBLE_CONFIG", cfg)
	write("ansible.cfg", "[defaults]\nfact_caching = jsonfile\nfact_caching_connection = "+cache+"\ngathering = smart\n")
	inv := filepath.Join(dir, "hosts")
	if code, out, errOut := runCLI(t, "play", "-i", inv, filepath.Join(dir, "set.yml")); code != 0 || !strings.Contains(out, "Gathering Facts") {
		t.Fatalf("first: %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(cache, "a")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "play", "-i", inv, filepath.Join(dir, "use.yml"))
	if code != 0 || strings.Contains(out, "Gathering Facts") || !strings.Contains(out, "kept=7") || strings.Contains(errOut, "does not apply") {
		t.Fatalf("second: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "play", "-i", inv, "--flush-cache", filepath.Join(dir, "use.yml"))
	if code != 0 || !strings.Contains(out, "Gathering Facts") || !strings.Contains(out, "kept=none") {
		t.Fatalf("--flush-cache: %d\n%s", code, out)
	}
	for cfgText, want := range map[string]string{
		"[defaults]\nfact_caching = community.general.redis\n": "tender has the memory, jsonfile and ledger fact caches",
		"[defaults]\nfact_caching = jsonfile\n":                "requires the 'fact_caching_connection' config option",
	} {
		write("ansible.cfg", cfgText)
		if code, out, errOut := runCLI(t, "play", "-i", inv, filepath.Join(dir, "use.yml")); code != 5 || !strings.Contains(errOut, want) || strings.Contains(out, "TASK") {
			t.Errorf("%q: exit %d, stderr %s", cfgText, code, errOut)
		}
	}
}

// fact_caching = ledger keeps the facts in the ledger: the run's --state
// (SQLite) when fact_caching_connection is unset, or the PostgreSQL
// ledger it names. The second play does not gather and reads the first's
// cacheable fact; --flush-cache forgets them.
func TestLedgerFactCache(t *testing.T) {
	t.Run("state", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "ledger.db")
		ledgerFactCache(t, "", "--state", state)
		if _, err := os.Stat(state); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		ledgerFactCache(t, "fact_caching_connection = "+postgresURL(t)+"\n", "--no-history")
	})
}

func ledgerFactCache(t *testing.T, conn string, flags ...string) {
	dir := t.TempDir()
	write := fileWriter(t, dir)
	write("hosts", "a ansible_connection=local\n")
	write("set.yml", "- hosts: all\n  gather_subset: [min]\n  tasks:\n    - set_fact: {kept: 9, cacheable: true}\n")
	write("use.yml", "- hosts: all\n  tasks:\n    - debug: msg=\"kept={{ kept | default('none') }} os={{ ansible_system | default('none') }}\"\n")
	t.Setenv("ANSIBLE_CONFIG", filepath.Join(dir, "ansible.cfg"))
	write("ansible.cfg", "[defaults]\nfact_caching = ledger\nfact_caching_prefix = t_\ngathering = smart\n"+conn)
	inv := filepath.Join(dir, "hosts")
	play := func(extra ...string) (int, string, string) {
		return runCLI(t, append(append([]string{"play", "-i", inv}, flags...), extra...)...)
	}
	if code, out, errOut := play(filepath.Join(dir, "set.yml")); code != 0 || !strings.Contains(out, "Gathering Facts") {
		t.Fatalf("first: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut := play(filepath.Join(dir, "use.yml"))
	if code != 0 || strings.Contains(out, "Gathering Facts") || !strings.Contains(out, "kept=9 os=Linux") {
		t.Fatalf("second: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = play("--flush-cache", filepath.Join(dir, "use.yml"))
	if code != 0 || !strings.Contains(out, "Gathering Facts") || !strings.Contains(out, "kept=none") {
		t.Fatalf("--flush-cache: %d\n%s", code, out)
	}
}

// fileWriter returns a function that writes a file in dir, failing t
// when it cannot.
func fileWriter(t *testing.T, dir string) func(name, data string) {
	return func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
