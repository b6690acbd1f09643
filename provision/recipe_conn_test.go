package provision_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// jailDialer is a connection type written outside tender, for
// TestAddConnectionRecipe: a "jail" is a directory of the controller,
// named by the host's ansible_jail_dir, and its connections run every
// script inside it. It declares its own variables and nothing else.
type jailDialer struct {
	mu   sync.Mutex
	seen map[string]transport.Target
}

func (d *jailDialer) Params() transport.ConnParams {
	return transport.ConnParams{User: []string{"ansible_jail_user"},
		Options: []transport.ConnOption{{Name: "dir", Vars: []string{"ansible_jail_dir"}}}}
}

func (d *jailDialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	d.mu.Lock()
	d.seen[t.Name] = t
	d.mu.Unlock()
	dir, _ := t.Options["dir"].(string)
	if dir == "" {
		return nil, transport.Unreachable(t.Name, os.ErrNotExist)
	}
	c, err := local.Dialer{}.Connect(ctx, t)
	if err != nil {
		return nil, err
	}
	return jailConn{c, dir}, nil
}

// jailConn runs each script in the jail's directory.
type jailConn struct {
	transport.Conn
	dir string
}

func (c jailConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	cmd.Script = "cd '" + c.dir + "' || exit 1\n" + cmd.Script
	return c.Conn.Run(ctx, cmd)
}

// TestAddConnectionRecipe proves the recipe of docs/ARCHITECTURE.md: a
// connection type is its Dialer plus one registration line. Registered
// here under a name and a collection alias, "jail" reads the variables it
// declares (its user, its directory; not ansible_host), its hosts' tasks
// run through it, and a host whose jail has no directory is unreachable
// alone.
func TestAddConnectionRecipe(t *testing.T) {
	root := t.TempDir()
	for _, j := range []string{"j1", "j2"} {
		os.Mkdir(filepath.Join(root, j), 0o755)
	}
	d := &jailDialer{seen: map[string]transport.Target{}}
	out, recap, err := play(t, `
a ansible_connection=jail ansible_jail_dir=`+root+`/j1 ansible_jail_user=keeper ansible_host=nowhere
b ansible_connection=example.jails.jail ansible_jail_dir=`+root+`/j2
c ansible_connection=jail
`, `
- hosts: all
  gather_facts: false
  tasks:
    - shell: pwd > here
    - command: cat here
      register: here
    - assert:
        that: here.stdout is search(inventory_hostname | replace('a', 'j1') | replace('b', 'j2') ~ '$')
`, func(r *provision.Runner) {
		r.Connections.Add("jail", d, "example.jails.jail")
	})
	if err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string][2]int{"a": {3, 2}, "b": {3, 2}} {
		if s := recap.Stats[h]; s.OK != want[0] || s.Changed != want[1] || s.Failed != 0 {
			t.Errorf("%s: %+v\n%s", h, *s, out)
		}
	}
	if s := recap.Stats["c"]; s.Unreachable != 1 {
		t.Errorf("c: %+v\n%s", *s, out)
	}
	for _, j := range []string{"j1", "j2"} {
		if b, err := os.ReadFile(filepath.Join(root, j, "here")); err != nil || !strings.HasSuffix(strings.TrimSpace(string(b)), j) {
			t.Errorf("%s/here: %q %v", j, b, err)
		}
	}
	if a := d.seen["a"]; a.User != "keeper" || a.Host != "" || a.Options["dir"] != root+"/j1" {
		t.Errorf("a's target: %+v", a)
	}
}
