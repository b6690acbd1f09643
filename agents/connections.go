package agents

import (
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/ssh"
)

// DefaultConnections are the connections a Deployer uses when
// Options.Connections is nil: ssh (also under Ansible's names smart and
// paramiko) and local. ssh checks host keys against the user's
// ~/.ssh/known_hosts with OpenSSH's accept-new policy, as a control plane
// adopting machines needs: a host met for the first time has its key
// recorded there, and a host whose key has changed since is refused. Its
// ssh config, keys and agent are OpenSSH's defaults (ssh.Dialer's zero
// values). Give Options.Connections to choose otherwise.
func DefaultConnections() *transport.Connections {
	return transport.NewConnections().
		Add("ssh", &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew}, "smart", "paramiko").
		Add("local", local.Dialer{})
}
