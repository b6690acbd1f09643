package files

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// TestSyncBridgeRefusal: over tender's own connection, a dest_port,
// private_key or ssh option that would send rsync elsewhere (or as
// someone else) than the connection goes is refused; ones that agree
// with the connection, and ssh's tuning options, are not.
func TestSyncBridgeRefusal(t *testing.T) {
	vars := map[string]any{"ansible_port": "2222", "ansible_ssh_private_key_file": "/keys/id"}
	env := &tasks.Env{Eval: func(name string) (any, error) { return vars[name], nil }}
	for _, c := range []struct {
		args tasks.Args
		want string
	}{
		{tasks.Args{}, ""},
		{tasks.Args{"dest_port": 2222, "private_key": "/keys/./id"}, ""},
		{tasks.Args{"ssh_args": "-o ConnectTimeout=30 -o LogLevel=ERROR -C", "verify_host": true,
			"ssh_connection_multiplexing": true, "use_ssh_args": true}, ""},
		{tasks.Args{"dest_port": 22}, "dest_port 22 differs from the connection's port 2222"},
		{tasks.Args{"private_key": "/other"}, "private_key /other is not the connection's key"},
		{tasks.Args{"ssh_args": "-o ConnectTimeout=3 -p 2200"}, "ssh_args -p would change"},
		{tasks.Args{"ssh_args": "-o User=bob"}, "ssh_args -o User=bob would change"},
		{tasks.Args{"ssh_args": "-oProxyJump=bastion"}, "ssh_args -o ProxyJump=bastion would change"},
		{tasks.Args{"ssh_args": "-i /k"}, "ssh_args -i would change"},
	} {
		args := tasks.Args{"src": "/a", "dest": "/b"}
		for k, v := range c.args {
			args[k] = v
		}
		a, err := synchronizeArgs.Decode(args)
		if err != nil {
			t.Fatal(err)
		}
		got := syncBridgeRefusal(env, a)
		if c.want == "" && got != "" || c.want != "" && !strings.HasPrefix(got, c.want) {
			t.Errorf("%v: got %q, want %q", c.args, got, c.want)
		}
	}
}
