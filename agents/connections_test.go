package agents_test

import (
	"testing"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/ssh"
)

// TestDefaultConnections: ssh under Ansible's three names, with the
// accept-new host key policy the doc states, and local.
func TestDefaultConnections(t *testing.T) {
	c := agents.DefaultConnections()
	for _, name := range []string{"ssh", "smart", "paramiko"} {
		canonical, d, err := c.Resolve(name)
		if err != nil || canonical != "ssh" {
			t.Fatalf("%s: %q %v", name, canonical, err)
		}
		sd, ok := d.(*ssh.Dialer)
		if !ok || sd.HostKeys != ssh.HostKeyAcceptNew {
			t.Errorf("%s: %#v", name, d)
		}
	}
	if _, d, err := c.Resolve("local"); err != nil || d != (local.Dialer{}) {
		t.Errorf("local: %#v %v", d, err)
	}
	if _, _, err := c.Resolve("docker"); err == nil {
		t.Error("docker is not a default connection")
	}
}
