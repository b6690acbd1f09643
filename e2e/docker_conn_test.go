//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/docker"
	"github.com/tender-sh/tender/transport/transporttest"
)

// TestDockerConnection: the docker connection against a real container
// of the fleet: the transport conformance suite, then a playbook run
// twice through `tender play` with ansible_connection=docker, the second
// run changing nothing. The container's sshd is never used, except as
// something to dial from inside the container.
func TestDockerConnection(t *testing.T) {
	h := fl.fresh(t, "nopy", 1)[0]
	t.Run("conformance", func(t *testing.T) {
		transporttest.Run(t, transporttest.Suite{
			Open: func(t *testing.T) transport.Conn {
				c, err := docker.Dialer{}.Connect(context.Background(), transport.Target{Name: h.name, Host: h.container})
				if err != nil {
					t.Fatal(err)
				}
				return c
			},
			// The container's own sshd, seen from inside it.
			Banner: func(t *testing.T) (string, string) { return "127.0.0.1:22", "SSH-2.0-OpenSSH_" },
		})
	})
	dir := t.TempDir()
	inv := filepath.Join(dir, "hosts")
	if err := os.WriteFile(inv, []byte("[boxes]\nbox ansible_connection=community.docker.docker ansible_host="+h.container+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pb := writePlaybook(t, `
- hosts: boxes
  tasks:
    - copy: {dest: /etc/app.conf, content: "port={{ ansible_facts.hostname | length }}\n", mode: "0640"}
    - lineinfile: {path: /etc/app.env, line: "LOG=info", create: true}
    - file: {path: /srv/app, state: directory, owner: nobody}
    - command: touch /srv/app/ready
      args: {creates: /srv/app/ready}
    - wait_for: {host: 127.0.0.1, port: 22, timeout: 10}
    - command: id -un
      register: who
      changed_when: false
    - assert: {that: [who.stdout == "root"]}
`)
	for run, want := range []string{"changed=4", "changed=0"} {
		out, code := fl.run(t, "play", "-i", inv, pb)
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "failed=0") {
			t.Fatalf("run %d: exit %d, want %s:\n%s", run+1, code, want, out)
		}
	}
	got := fl.sh(t, h.name, "cat /etc/app.env; stat -c '%a %U' /etc/app.conf /srv/app; ls /srv/app")
	for _, want := range []string{"LOG=info\n", "640 root\n", "755 nobody\n", "ready\n"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the container holds no %q:\n%s", want, got)
		}
	}
	// A container that is not there is unreachable, and says so.
	if err := os.WriteFile(inv, []byte("[boxes]\nghost ansible_connection=docker ansible_host=tender-no-such-container\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := fl.run(t, "play", "-i", inv, pb)
	if code != 4 || !strings.Contains(out, "UNREACHABLE") || !strings.Contains(out, "tender-no-such-container") {
		t.Fatalf("a missing container: exit %d:\n%s", code, out)
	}
}
