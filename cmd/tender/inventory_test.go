package main

import (
	"os"
	"strings"
	"testing"
)

// TestInventoryScriptAndPlugins: the script plugin runs an executable
// inventory; ANSIBLE_INVENTORY_ENABLED picks the plugins (here the host
// list with ranges) and is applied, not warned about.
func TestInventoryScriptAndPlugins(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent/ansible.cfg")
	script := "#!/bin/sh\necho noise >&2\n[ \"$1\" = --list ] && echo '{\"web\": {\"hosts\": [\"w1\"], \"vars\": {\"ansible_connection\": \"local\"}}, \"_meta\": {\"hostvars\": {}}}'\n"
	if err := os.WriteFile("inv.sh", []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("pb.yml", []byte("- hosts: web\n  gather_facts: false\n  tasks:\n    - debug: msg={{ group_names }}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "play", "-i", "inv.sh", "pb.yml")
	if code != 0 || !strings.Contains(out, `"msg": [`) || !strings.Contains(out, `"web"`) || !strings.Contains(errOut, "[ERROR]: noise") {
		t.Fatalf("script inventory: exit %d:\n%s%s", code, out, errOut)
	}
	// The script plugin's always_show_stderr=false hides a good run's stderr.
	t.Setenv("ANSIBLE_INVENTORY_PLUGIN_SCRIPT_STDERR", "false")
	if code, out, errOut = runCLI(t, "play", "-i", "inv.sh", "pb.yml"); code != 0 || strings.Contains(errOut, "noise") {
		t.Fatalf("always_show_stderr=false: exit %d:\n%s%s", code, out, errOut)
	}
	os.Unsetenv("ANSIBLE_INVENTORY_PLUGIN_SCRIPT_STDERR")
	t.Setenv("ANSIBLE_INVENTORY_ENABLED", "advanced_host_list")
	code, out, errOut = runCLI(t, "inventory", "list", "-i", "h[1:2],")
	if code != 0 || !strings.Contains(out, `"h1"`) || !strings.Contains(out, `"h2"`) || strings.Contains(errOut, "does not apply") {
		t.Fatalf("advanced_host_list: exit %d:\n%s%s", code, out, errOut)
	}
}
