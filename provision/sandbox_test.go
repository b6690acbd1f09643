package provision_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// sandboxRun writes files into a new directory and runs pb.yml from it
// on hosts a and b (ssh-kind connections, served locally) under a policy
// that may read that directory and run the file lookup.
func sandboxRun(t *testing.T, files map[string]string) (out string, recap *provision.Recap, dir string, err error) {
	t.Helper()
	dir, err = filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.ReplaceAll(data, "@DIR@", dir)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pol := &sandbox.Policy{Name: "tenant.yml", Lookups: []string{"file"}, Read: []string{filepath.Join(dir, "pb")}}
	inv, err := inventory.Load(filepath.Join(dir, "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := playbooks.Load(filepath.Join(dir, "pb", "pb.yml"), playbooks.Options{Modules: testModules(), Sandbox: pol})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	r := &provision.Runner{Inventory: inv, Modules: testModules(), Connections: transport.NewConnections().Add("ssh", downDialer{}).Add("local", local.Dialer{}),
		Events: report.Text(&b, false), Sandbox: pol}
	recap, err = r.Run(context.Background(), p)
	return b.String(), recap, dir, err
}

// TestSandboxFailsTheOffendingTasksOnly: each access the policy refuses
// fails its task on every host with the policy's message, wherever the
// lookup sits (args, when:, vars, a with_ loop); the allowed tasks and
// the rest of the run go on.
func TestSandboxFailsTheOffendingTasksOnly(t *testing.T) {
	out, recap, dir, err := sandboxRun(t, map[string]string{
		"hosts":        "a\nb\n",
		"pb/ok.txt":    "fine",
		"secret/s.yml": "s: 1\n",
		"pb/pb.yml": `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg="{{ lookup('file', 'ok.txt') }}"
    - debug: msg="{{ lookup('file', '@DIR@/secret/s.yml') }}"
      ignore_errors: true
    - debug: msg=when
      when: lookup('env', 'HOME') != ''
      ignore_errors: true
    - debug: msg="{{ x }}"
      vars:
        x: "{{ lookup('password', '@DIR@/pb/pw') }}"
      ignore_errors: true
    - debug: msg="{{ item }}"
      with_items: [1]
      ignore_errors: true
    - include_vars: "@DIR@/secret/s.yml"
      ignore_errors: true
    - include_vars: ../secret/s.yml
      ignore_errors: true
    - command: "true"
      delegate_to: localhost
      ignore_errors: true
    - debug: msg=done
- hosts: a
  gather_facts: false
  connection: local
  tasks:
    - command: "true"
    - debug: msg=unreached
`,
	})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	for _, want := range []string{
		"does not allow reading " + dir + "/secret/s.yml (readable: " + dir + "/pb)",
		"does not allow the lookup env (lookups allowed: file)",
		"does not allow the lookup password",
		"does not allow the lookup items",
		"does not allow tasks to run on the controller (delegate_to: localhost)",
		"does not allow tasks to run on the controller (host a with connection local)",
	} {
		if n := strings.Count(out, "the controller sandbox tenant.yml "+want); n == 0 {
			t.Errorf("no failure with %q:\n%s", want, out)
		}
	}
	// the file lookup and both include_vars (the relative one refused
	// where the engine searches for it), on each host
	if n := strings.Count(out, "does not allow reading "+dir+"/secret/s.yml"); n != 6 {
		t.Errorf("%d refusals to read secret/s.yml, want 6:\n%s", n, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "pb/pw")); err == nil {
		t.Error("the password lookup wrote its file")
	}
	if strings.Count(out, `"msg": "fine"`) != 2 || strings.Count(out, `"msg": "done"`) != 2 {
		t.Errorf("the allowed tasks did not run on both hosts:\n%s", out)
	}
	if s := recap.Stats["a"]; s.Ignored != 7 || s.Failed != 1 || s.OK != 9 {
		t.Errorf("a: %+v\n%s", *s, out)
	}
	if s := recap.Stats["b"]; s.Ignored != 7 || s.Failed != 0 || s.OK != 9 {
		t.Errorf("b: %+v\n%s", *s, out)
	}
}

// TestSandboxPlayLevel: a play's vars_files outside the policy stop the
// run as any unreadable vars_files does, naming the policy; an invalid
// policy stops it before anything runs.
func TestSandboxPlayLevel(t *testing.T) {
	out, _, dir, err := sandboxRun(t, map[string]string{
		"hosts": "a\n", "secret/s.yml": "s: 1\n",
		"pb/pb.yml": "- hosts: all\n  gather_facts: false\n  vars_files: ['@DIR@/secret/s.yml']\n  tasks:\n    - debug: msg=x\n",
	})
	if err == nil || !strings.Contains(err.Error(), "vars_files: the controller sandbox tenant.yml does not allow reading "+dir+"/secret/s.yml") {
		t.Fatalf("%v\n%s", err, out)
	}
	r := &provision.Runner{Inventory: &inventory.Inventory{}, Modules: testModules(), Sandbox: &sandbox.Policy{Read: []string{"rel"}}}
	if _, err := r.Run(context.Background(), &playbooks.Playbook{}); err == nil || !strings.Contains(err.Error(), `"rel" is not an absolute path`) {
		t.Errorf("invalid policy: %v", err)
	}
}

// TestSandboxDynamicIncludes: an include_tasks or include_role whose
// target the policy refuses fails on each host with the policy's
// message and runs none of the target's tasks, whether its name is
// literal (read at load time as a preview, only a warning then) or
// templated; ignore_errors and rescue apply to the denial as to any
// failure, and the run goes on.
func TestSandboxDynamicIncludes(t *testing.T) {
	out, recap, dir, err := sandboxRun(t, map[string]string{
		"hosts":                         "a\nb\n",
		"secret/s.yml":                  "- debug: msg=secret-task\n",
		"secret/roles/r/tasks/main.yml": "- debug: msg=secret-role\n",
		"pb/pb.yml": `
- hosts: all
  gather_facts: false
  vars:
    f: "@DIR@/secret/s.yml"
  tasks:
    - include_tasks: "@DIR@/secret/s.yml"
      ignore_errors: true
    - include_tasks: "{{ f }}"
      ignore_errors: true
    - block:
        - include_role: name=@DIR@/secret/roles/r
      rescue:
        - debug: msg=rescued
    - debug: msg=done
    - include_tasks: "@DIR@/secret/s.yml"
    - debug: msg=unreached
`,
	})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if strings.Contains(out, "secret-") || strings.Contains(out, "unreached") {
		t.Errorf("a refused target ran:\n%s", out)
	}
	for want, n := range map[string]int{
		"pb.yml:7:7: cannot read task file " + dir + "/secret/s.yml: the controller sandbox tenant.yml does not allow reading " + dir + "/secret/s.yml":  2,
		"pb.yml:16:7: cannot read task file " + dir + "/secret/s.yml: the controller sandbox tenant.yml does not allow reading " + dir + "/secret/s.yml": 2,
		"pb.yml:9:7: cannot read task file " + dir + "/secret/s.yml: the controller sandbox tenant.yml does not allow reading " + dir + "/secret/s.yml":  2,
		"pb.yml:12:11: " + dir + "/secret/roles/r/tasks/main.yml: cannot read role file: the controller sandbox tenant.yml":                              2,
		`"msg": "rescued"`: 2,
		`"msg": "done"`:    2,
		"...ignoring":      4,
	} {
		if got := strings.Count(out, want); got != n {
			t.Errorf("%d × %q, want %d:\n%s", got, want, n, out)
		}
	}
	for _, h := range []string{"a", "b"} {
		if s := recap.Stats[h]; s.Ignored != 2 || s.Rescued != 1 || s.Failed != 1 || s.OK != 4 {
			t.Errorf("%s: %+v\n%s", h, *s, out)
		}
	}
}

// filesDialer reaches hosts locally, after asking the Target's Files
// about its key files as the ssh transport does; it records whether it
// was given Files.
type filesDialer struct{ given *atomic.Bool }

func (d filesDialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	if t.Files != nil {
		d.given.Store(true)
		for _, k := range t.KeyFiles {
			if err := t.Files.CheckRead(k); err != nil {
				return nil, err
			}
		}
	}
	return local.Dialer{}.Connect(ctx, t)
}

// TestSandboxConnectionFiles: the engine gives the connection its
// sandbox to vet the controller files a host's variables name; a key
// file outside fails that host's task with the policy's message (the
// host is failed, not unreachable) and the other hosts go on.
func TestSandboxConnectionFiles(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"hosts":  "a ansible_ssh_private_key_file=" + dir + "/secret/key\nb ansible_private_key_file=" + dir + "/pb/key\n",
		"pb/key": "k", "secret/key": "k",
		"pb/pb.yml": "- hosts: all\n  gather_facts: false\n  tasks:\n    - command: \"true\"\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
	}
	inv, err := inventory.Load(filepath.Join(dir, "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := playbooks.Load(filepath.Join(dir, "pb", "pb.yml"), playbooks.Options{Modules: testModules()})
	if err != nil {
		t.Fatal(err)
	}
	for _, pol := range []*sandbox.Policy{nil, {Name: "tenant.yml", Read: []string{filepath.Join(dir, "pb")}}} {
		var b bytes.Buffer
		var given atomic.Bool
		r := &provision.Runner{Inventory: inv, Modules: testModules(), Connections: transport.NewConnections().Add("ssh", filesDialer{&given}),
			Events: report.Text(&b, false), Sandbox: pol}
		recap, err := r.Run(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if pol == nil {
			if given.Load() || recap.Stats["a"].Failed != 0 {
				t.Errorf("without a sandbox: Files given %t\n%s", given.Load(), out)
			}
			continue
		}
		if !strings.Contains(out, "fatal: [a]: FAILED!") || !strings.Contains(out, "the controller sandbox tenant.yml does not allow reading "+dir+"/secret/key (readable: "+dir+"/pb)") {
			t.Errorf("a's key file was not refused:\n%s", out)
		}
		if a, b := recap.Stats["a"], recap.Stats["b"]; a.Failed != 1 || a.Unreachable != 0 || b.OK != 1 || b.Failed != 0 {
			t.Errorf("a %+v, b %+v\n%s", *a, *b, out)
		}
	}
}
