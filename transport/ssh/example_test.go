package ssh_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh"
)

// A Dialer is configured once for a run and shared by every host; each
// Connect gives the one connection used for all of that host's tasks.
func Example() {
	policy, err := ssh.ParseHostKeyPolicy("accept-new") // e.g. from --host-key-checking
	if err != nil {
		panic(err)
	}
	d := &ssh.Dialer{
		HostKeys:       policy,
		KeyFiles:       []string{"/home/me/.ssh/fleet_ed25519"},
		Passphrase:     func(file string) ([]byte, error) { return []byte("from a prompt"), nil },
		ConnectTimeout: 10 * time.Second,
	}
	ctx := context.Background()
	c, err := d.Connect(ctx, transport.Target{
		Name:    "web01",
		Host:    "10.0.0.11",
		User:    "deploy",
		Options: map[string]any{ssh.OptCommonArgs: "-o ProxyJump=admin@bastion.example.com"},
	})
	if err != nil {
		fmt.Println(err) // wraps transport.ErrUnreachable; maybe *ssh.HostKeyError
		return
	}
	defer c.Close()
	res, err := c.Run(ctx, transport.Cmd{Script: "id -un", Become: &transport.Become{}})
	if err == nil {
		fmt.Printf("%s", res.Stdout)
	}
}
