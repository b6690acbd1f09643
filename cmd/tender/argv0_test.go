package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runAs(t *testing.T, argv ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(argv, &out, &errb)
	return code, out.String(), errb.String()
}

func TestDropInByName(t *testing.T) {
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent/ansible.cfg")
	code, out, e := runAs(t, "/x/ansible-inventory", "-i", "web1,web2", "--list")
	var doc map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc["_meta"] == nil {
		t.Errorf("ansible-inventory --list: %d %q %s", code, out, e)
	}
	dir := t.TempDir()
	inv := filepath.Join(dir, "hosts")
	os.WriteFile(inv, []byte("[web]\nweb1 port=22\n"), 0o644)
	if code, out, e := runAs(t, "ansible-inventory", "--host", "web1", "-i", inv); code != 0 || !strings.Contains(out, `"port": 22`) {
		t.Errorf("ansible-inventory --host: %d %q %s", code, out, e)
	}
	if code, out, e := runAs(t, "/usr/bin/ansible-inventory", "-i", inv, "--graph", "web"); code != 0 || !strings.Contains(out, "@web:") || strings.Contains(out, "@all:") {
		t.Errorf("ansible-inventory --graph web: %d %q %s", code, out, e)
	}
	if code, _, e := runAs(t, "ansible-inventory", "-i", inv); code != 2 || !strings.Contains(e, "No action selected") {
		t.Errorf("ansible-inventory without an action: %d %s", code, e)
	}
	pb := filepath.Join(dir, "pb.yml")
	os.WriteFile(pb, []byte("- hosts: all\n  tasks:\n    - debug: msg=hi\n"), 0o644)
	if code, out, e := runAs(t, "/x/ansible-playbook", "-i", inv, "--list-hosts", pb); code != 0 || !strings.Contains(out, "web1") {
		t.Errorf("ansible-playbook --list-hosts: %d %q %s", code, out, e)
	}
	pw, f := filepath.Join(dir, "pw"), filepath.Join(dir, "f")
	os.WriteFile(pw, []byte("pw\n"), 0o600)
	os.WriteFile(f, []byte("secret\n"), 0o600)
	if code, _, e := runAs(t, "/x/ansible-vault", "encrypt", "--vault-password-file", pw, f); code != 0 || !strings.HasPrefix(string(mustRead(t, f)), "$ANSIBLE_VAULT;1.1;AES256") {
		t.Errorf("ansible-vault encrypt: %d %s", code, e)
	}
	if code, out, _ := runAs(t, "/x/ansible-doc", "command"); code != 0 || !strings.Contains(out, "command") {
		t.Errorf("ansible-doc command: %d %q", code, out)
	}
	if _, ok := dropIns["ansible"]; ok && newApp(nil, nil).Command("run") == nil {
		if code, _, e := runAs(t, "/x/ansible", "all", "-m", "ping"); code == 0 || !strings.Contains(e, "ansible needs `tender run`") {
			t.Errorf("ansible without tender run: %d %s", code, e)
		}
	}
	// Any other name is tender itself.
	if code, out, _ := runAs(t, "/x/tender-dev", "version"); code != 0 || !strings.HasPrefix(out, "tender ") {
		t.Errorf("another name: %d %q", code, out)
	}
}

// TestLinksToBuiltBinary builds tender, makes the links with `tender
// links` and runs ansible-inventory through one of them.
func TestLinksToBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tender")
	build := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	links := filepath.Join(dir, "links")
	os.Mkdir(links, 0o755)
	os.WriteFile(filepath.Join(links, "ansible-doc"), []byte("not tender"), 0o755)
	out, err := exec.Command(bin, "links", links).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "ansible-doc exists and is not a link to tender") {
		t.Errorf("links over a file: %v %s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(links, "ansible-doc")); string(b) != "not tender" {
		t.Errorf("a file that is not a link was replaced")
	}
	os.Remove(filepath.Join(links, "ansible-doc"))
	if out, err := exec.Command(bin, "links", links).CombinedOutput(); err != nil {
		t.Fatalf("links: %v %s", err, out)
	}
	if out, err := exec.Command(bin, "links", links).CombinedOutput(); err != nil || len(out) != 0 {
		t.Errorf("links again must keep the links quietly: %v %s", err, out)
	}
	for name := range dropIns {
		if target, err := os.Readlink(filepath.Join(links, name)); err != nil || target != bin {
			t.Errorf("%s: %q %v", name, target, err)
		}
	}
	cmd := exec.Command(filepath.Join(links, "ansible-inventory"), "-i", "web1,", "--list")
	cmd.Env = append(os.Environ(), "ANSIBLE_CONFIG=/nonexistent/ansible.cfg")
	if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), `"web1"`) {
		t.Errorf("ansible-inventory through the link: %v %s", err, out)
	}
}
