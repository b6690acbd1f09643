package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/sandbox"
)

func writeSandbox(t *testing.T, dir, text string) string {
	t.Helper()
	p := filepath.Join(dir, "sb.yml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadSandbox(t *testing.T) {
	dir := t.TempDir()
	p := writeSandbox(t, dir, "lookups: [file, ansible.builtin.items, pipe]\nread: [., ../shared, /srv/x]\nwrite: [out/]\nenv: [TENANT, LANG]\nlocal: yes\n")
	got, err := loadSandbox(p)
	if err != nil {
		t.Fatal(err)
	}
	want := &sandbox.Policy{Name: p, Lookups: []string{"file", "items", "pipe"},
		Read: []string{dir, filepath.Join(filepath.Dir(dir), "shared"), "/srv/x"}, Write: []string{filepath.Join(dir, "out")}, Env: []string{"TENANT", "LANG"}, Local: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// {} allows nothing
	if got, err := loadSandbox(writeSandbox(t, dir, "{}\n")); err != nil || len(got.Lookups)+len(got.Read)+len(got.Write)+len(got.Env) != 0 || got.Local {
		t.Errorf("{}: %+v %v", got, err)
	}
}

func TestLoadSandboxErrors(t *testing.T) {
	dir := t.TempDir()
	for text, want := range map[string]string{
		"lookups: [file]\nreed: [.]\n": ":2:1: \"reed\" is not a sandbox key (lookups, read, write, env, local)",
		"env: [HOME, 'A=B']\n":         ":1:13: env: \"A=B\" is not an environment variable's name",
		"env: ['']\n":                  ":1:7: env: \"\" is not an environment variable's name",
		"env: HOME\n":                  ":1:6: env: want a list, got \"HOME\"",
		"env: [1]\n":                   ":1:7: env: want a string, got \"1\"",
		"lookups: file\n":              ":1:10: lookups: want a list, got \"file\"",
		"read: [1]\n":                  ":1:8: read: want a string, got \"1\"",
		"read: [[a]]\n":                ":1:8: read: want a string, got a list",
		"write: {a: b}\n":              ":1:8: write: want a list, got a mapping",
		"local: maybe\n":               ":1:8: local: want true or false, got \"maybe\"",
		"local:\n":                     ":1:7: local: want true or false, got nothing",
		"lookups: [file, nope]\n":      ":1:17: lookups: \"nope\" is not a lookup plugin tender implements",
		"lookups: [items, pipe]\n":     ":1:18: the pipe lookup runs commands on this machine: allowing it needs local: true",
		"read: [\"~/x\"]\n":            ":1:8: \"~/x\": ~ is not expanded here; write the absolute path",
		"read: ['']\n":                 ":1:8: an empty path",
		"local: true\nlocal: false\n":  ":2:1: \"local\" is given twice",
		"- read\n":                     ":1:1: a sandbox file is a mapping of lookups:, read:, write:, env: and local:",
		"":                             ":1:1: the sandbox file is empty",
		"read: [a\n":                   ":1:1: YAML syntax: did not find expected",
		"x: &a [1]\nread: *a\n":        ":2:7: read: want a list, got an alias",
	} {
		p := writeSandbox(t, dir, text)
		_, err := loadSandbox(p)
		if err == nil || !strings.Contains(err.Error(), p+want) {
			t.Errorf("%q: %v\nwant %q", text, err, p+want)
		}
	}
	if _, err := loadSandbox(filepath.Join(dir, "missing.yml")); err == nil || !strings.Contains(err.Error(), "--sandbox: open "+dir+"/missing.yml") {
		t.Errorf("missing: %v", err)
	}
}

// TestPlaySandbox runs tender play under --sandbox: what the file allows
// runs, what it does not fails the task (exit 2) with the file's name; a
// playbook outside read: does not load (exit 4); a bad file stops before
// anything (exit 5).
func TestPlaySandbox(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"pb/hosts":   "localhost ansible_connection=local\n",
		"pb/ok.txt":  "fine\n",
		"secret.txt": "secret\n",
		"pb/pb.yml": `- hosts: localhost
  gather_facts: false
  tasks:
    - debug: msg="{{ lookup('file', 'ok.txt') }}"
    - debug: msg="{{ lookup('file', '` + dir + `/secret.txt') }}"
      ignore_errors: true
    - debug: msg="{{ '$TENDER_SB_SECRET ~' | expandvars | expanduser }} {{ '~/$TENDER_SB_OK' | expandvars | expanduser }}"
    - debug: msg="{{ lookup('env', 'HOME') }}"
`,
		"secret.yml": "- debug: msg=secret-task\n",
		"pb/inc.yml": `- hosts: localhost
  gather_facts: false
  tasks:
    - include_tasks: ` + dir + `/secret.yml
    - debug: msg=unreached
`,
		"pb/sb.yml":  "lookups: [file]\nread: [.]\nenv: [TENDER_SB_OK]\nlocal: true\n",
		"pb/bad.yml": "lookups: [file]\nlocal: 1\n",
		"narrow.yml": "read: [pb/sub]\nlocal: true\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	pb, hosts := filepath.Join(dir, "pb/pb.yml"), filepath.Join(dir, "pb/hosts")
	t.Setenv("TENDER_SB_SECRET", "s3cret")
	t.Setenv("TENDER_SB_OK", "shown")
	code, out, errOut := runCLI(t, "play", "--no-progress", "-i", hosts, "--sandbox", filepath.Join(dir, "pb/sb.yml"), pb)
	sb := filepath.Join(dir, "pb/sb.yml")
	if code != 2 || !strings.Contains(out, `"msg": "fine"`) || !strings.Contains(out, `"msg": "$TENDER_SB_SECRET ~ ~/shown"`) ||
		!strings.Contains(out, "the controller sandbox "+sb+" does not allow reading "+dir+"/secret.txt (readable: "+dir+"/pb)") ||
		!strings.Contains(out, "the controller sandbox "+sb+" does not allow the lookup env (lookups allowed: file)") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	// an include_tasks of a file outside read: fails the include (a
	// warning only at load time), runs none of its tasks, and the run
	// fails
	code, out, errOut = runCLI(t, "play", "--no-progress", "-i", hosts, "--sandbox", sb, filepath.Join(dir, "pb/inc.yml"))
	if code != 2 || strings.Contains(out, "secret-task") || strings.Contains(out, "unreached") ||
		!strings.Contains(out, "inc.yml:4:7: cannot read task file "+dir+"/secret.yml: the controller sandbox "+sb+" does not allow reading "+dir+"/secret.yml (readable: "+dir+"/pb)") {
		t.Errorf("include_tasks: exit %d\n%s\n%s", code, out, errOut)
	}
	// connection variables naming controller files outside read: fail
	// the host's task (not unreachable), before anything is dialled
	os.WriteFile(filepath.Join(dir, "pb/ssh_hosts"), []byte("k ansible_host=127.0.0.1 ansible_port=9 ansible_ssh_private_key_file="+dir+"/secret.txt\n"+
		"c ansible_host=127.0.0.1 ansible_port=9 ansible_ssh_common_args='-o UserKnownHostsFile="+dir+"/secret.txt'\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pb/cmd.yml"), []byte("- hosts: all\n  gather_facts: false\n  tasks:\n    - command: \"true\"\n"), 0o644)
	code, out, errOut = runCLI(t, "play", "--no-progress", "-i", filepath.Join(dir, "pb/ssh_hosts"), "--sandbox", sb, filepath.Join(dir, "pb/cmd.yml"))
	if code != 2 || strings.Count(out, "the controller sandbox "+sb+" does not allow reading "+dir+"/secret.txt (readable: "+dir+"/pb)") != 2 ||
		strings.Contains(out, "UNREACHABLE") {
		t.Errorf("connection files: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "play", "--syntax-check", "--sandbox", filepath.Join(dir, "narrow.yml"), pb)
	if code != 4 || !strings.Contains(errOut, "cannot read playbook: the controller sandbox") {
		t.Errorf("narrow: exit %d\n%s", code, errOut)
	}
	code, _, errOut = runCLI(t, "play", "-i", hosts, "--sandbox", filepath.Join(dir, "pb/bad.yml"), pb)
	if code != 5 || !strings.Contains(errOut, filepath.Join(dir, "pb/bad.yml")+":2:8: local: want true or false") {
		t.Errorf("bad: exit %d\n%s", code, errOut)
	}
	// the agent commands take it too, before the bundle is read
	code, _, errOut = runCLI(t, "agent", "status", "-i", hosts, "--state", filepath.Join(dir, "l.db"), "--bundle", filepath.Join(dir, "nowhere"), "--sandbox", filepath.Join(dir, "pb/bad.yml"))
	if code != 5 || !strings.Contains(errOut, filepath.Join(dir, "pb/bad.yml")+":2:8: local: want true or false") {
		t.Errorf("agent: exit %d\n%s", code, errOut)
	}
}
