package main

import (
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/docker"
	"github.com/tender-sh/tender/transport/local"
)

// connections are the connection types tender's commands offer, under
// Ansible's names for them: ssh, the default type (smart and paramiko
// reach it too, as tender has one SSH client), local, the controller's
// own, and docker (community.docker's connection). sshDialer reaches the ssh hosts.
func connections(sshDialer transport.Dialer) *transport.Connections {
	return transport.NewConnections().
		Add("ssh", sshDialer, "paramiko", "paramiko_ssh", "ansible.builtin.ssh", "ansible.builtin.paramiko_ssh", "ansible.legacy.ssh").
		Add("local", local.Dialer{}, "ansible.builtin.local", "ansible.legacy.local").
		Add("docker", docker.Dialer{}, "community.docker.docker", "community.general.docker")
}
