package provision_test

import (
	"os"
	"os/user"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"

	"github.com/tender-sh/tender/transport/transporttest"
)

func fakeSudo(t *testing.T) (string, string) { return transporttest.FakeSudo(t) }

// TestBecomeSameUserSkipsSudo: become to the user the host already logs in
// as runs no sudo, as Ansible (recorded against a host without sudo: root
// with become: true succeeds there); another become user still goes
// through sudo. On the local connection the login user is the one tender
// runs as, whatever ansible_user says, as Ansible's local connection has
// it; so is it for a task delegated to localhost.
func TestBecomeSameUserSkipsSudo(t *testing.T) {
	sudoDir, log := fakeSudo(t)
	t.Setenv("PATH", sudoDir+":"+os.Getenv("PATH"))
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	run := func(inv string) int {
		t.Helper()
		os.WriteFile(log, nil, 0o644)
		_, recap, err := play(t, inv, `
- hosts: all
  gather_facts: false
  become: true
  tasks:
    - command: "true"
      become_user: `+me.Username+`
    - command: "true"
      become_user: svc
    - command: "true"
      become_user: `+me.Username+`
      delegate_to: localhost
`, nil)
		if err != nil || recap.Stats["h1"].Failed != 0 {
			t.Fatalf("run: %v %+v", err, recap.Stats["h1"])
		}
		data, _ := os.ReadFile(log)
		return strings.Count(string(data), "-u ")
	}
	if n := run("h1 ansible_connection=local\n"); n != 1 {
		t.Errorf("local: sudo ran %d times, want once (for svc only)", n)
	}
	if n := run("h1 ansible_connection=local ansible_user=someone-else\n"); n != 1 {
		t.Errorf("local, ansible_user someone-else: sudo ran %d times, want once (ansible_user does not apply)", n)
	}
}

// TestBecomeSameRemoteUserSkipsSudo: over ssh, the login user is
// ansible_user (or remote_user): becoming it runs no sudo.
func TestBecomeSameRemoteUserSkipsSudo(t *testing.T) {
	f := transporttest.NewFake(t)
	_, recap, err := play(t, "root1 ansible_user=root\nbob1 ansible_user=bob\n", `
- hosts: all
  gather_facts: false
  become: true
  tasks:
    - command: "true"
`, func(r *provision.Runner) { withSSH(r, f) })
	if err != nil || recap.Failed() {
		t.Fatalf("%v %+v", err, recap)
	}
	for host, want := range map[string]bool{"root1": false, "bob1": true} {
		for _, c := range f.Host(host).Calls() {
			if c.Op == transporttest.OpRun && (c.Become != nil) != want {
				t.Errorf("%s: become %+v, want sudo %v", host, c.Become, want)
			}
		}
	}
}
