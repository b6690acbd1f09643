package provision_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision/transport/transporttest"
)

func fakeSudo(t *testing.T) (string, string) { return transporttest.FakeSudo(t) }

// TestBecomeSameUserSkipsSudo: become to the user the host already logs in
// as runs no sudo, as Ansible (recorded against a host without sudo: root
// with become: true succeeds there); another become user still goes
// through sudo.
func TestBecomeSameUserSkipsSudo(t *testing.T) {
	sudoDir, log := fakeSudo(t)
	t.Setenv("PATH", sudoDir+":"+os.Getenv("PATH"))
	run := func(inv string) int {
		t.Helper()
		os.WriteFile(log, nil, 0o644)
		_, recap, err := play(t, inv, `
- hosts: all
  gather_facts: false
  become: true
  tasks:
    - command: "true"
    - command: "true"
      become_user: svc
`, nil)
		if err != nil || recap.Stats["h1"].Failed != 0 {
			t.Fatalf("run: %v %+v", err, recap.Stats["h1"])
		}
		data, _ := os.ReadFile(log)
		return strings.Count(string(data), "-u ")
	}
	if n := run("h1 ansible_connection=local ansible_user=root\n"); n != 1 {
		t.Errorf("logged in as root: sudo ran %d times, want once (for svc only)", n)
	}
	if n := run("h1 ansible_connection=local ansible_user=bob\n"); n != 2 {
		t.Errorf("logged in as bob: sudo ran %d times, want twice", n)
	}
}
