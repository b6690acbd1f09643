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
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
		"[defaults]\nfact_caching = community.general.redis\n": "tender has the memory and jsonfile fact caches",
		"[defaults]\nfact_caching = jsonfile\n":                "requires the 'fact_caching_connection' config option",
	} {
		write("ansible.cfg", cfgText)
		if code, out, errOut := runCLI(t, "play", "-i", inv, filepath.Join(dir, "use.yml")); code != 5 || !strings.Contains(errOut, want) || strings.Contains(out, "TASK") {
			t.Errorf("%q: exit %d, stderr %s", cfgText, code, errOut)
		}
	}
}
