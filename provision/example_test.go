package provision_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/docker"
	"github.com/tender-sh/tender/transport/local"
)

// A Runner runs a playbook against an inventory over the connection
// types it is given, reporting each host's outcome as an event. Here the
// one host is the machine itself (ansible_connection=local); a control
// plane would register ssh (transport/ssh) as well.
func ExampleRunner_Run() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	pb := filepath.Join(dir, "site.yml")
	os.WriteFile(pb, []byte(`
- hosts: agents
  gather_facts: false
  tasks:
    - name: write the agent's config
      copy: {dest: "{{ conf }}", content: "port=7070\n"}
`), 0o644)

	inv := inventory.New()
	if err := inv.ParseINI("hosts", []byte("[agents]\nnode1 ansible_connection=local conf="+filepath.Join(dir, "agent.conf")+"\n")); err != nil {
		fmt.Println(err)
		return
	}
	play, err := playbooks.Load(pb, playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := &provision.Runner{
		Inventory:   inv,
		Modules:     builtin.Registry(),
		Connections: transport.NewConnections().Add("local", local.Dialer{}),
		Events: func(e provision.Event) {
			if e.Kind == provision.HostResult {
				fmt.Println(e.Kind, e.Host, e.Task, e.Status)
			}
		},
	}
	for range 2 { // the second run finds nothing to change
		recap, err := r.Run(context.Background(), play)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("changed=%d failed=%v\n", recap.Stats["node1"].Changed, recap.Failed())
	}
	// Output:
	// host_result node1 write the agent's config changed
	// changed=1 failed=false
	// host_result node1 write the agent's config ok
	// changed=0 failed=false
}

// ResolveConnection tells how tender would reach a host: from its
// variables (any lookup; here a map) and the keywords in force, through
// the connection types registered.
func ExampleResolveConnection() {
	conns := transport.NewConnections().
		Add("local", local.Dialer{}).
		Add("docker", docker.Dialer{}, "community.docker.docker")
	hostVars := map[string]any{"ansible_connection": "community.docker.docker", "ansible_host": "agent-7", "ansible_docker_working_dir": "/srv"}
	lookup := func(name string) (any, bool, error) { v, ok := hostVars[name]; return v, ok, nil }
	c, err := provision.ResolveConnection(conns, nil, "node7", lookup, provision.ConnKeywords{User: "root"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Type, c.Target.Host, c.Target.User, c.Target.Options["working_dir"])
	// Output: docker agent-7 root /srv
}

// Start runs a playbook in the background; its events arrive on a channel
// (read it: the run waits for its reader), and Wait returns the recap.
func ExampleRunner_Start() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	pb := filepath.Join(dir, "site.yml")
	os.WriteFile(pb, []byte(`
- hosts: all
  gather_facts: false
  tasks:
    - name: greet
      debug: msg="hello from {{ inventory_hostname }}"
`), 0o644)
	inv := inventory.New()
	inv.ParseINI("hosts", []byte("node1 ansible_connection=local\n"))
	play, err := playbooks.Load(pb, playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := &provision.Runner{Inventory: inv, Modules: builtin.Registry(),
		Connections: transport.NewConnections().Add("local", local.Dialer{})}
	h := r.Start(context.Background(), play)
	for e := range h.Events {
		switch e.Kind {
		case provision.TaskStart:
			fmt.Println(e.Kind, e.Task)
		case provision.HostResult:
			fmt.Println(e.Kind, e.Host, e.Status, e.Result["msg"])
		}
	}
	recap, err := h.Wait()
	fmt.Println("ok:", recap.Stats["node1"].OK, "error:", err)
	// Output:
	// task_start greet
	// host_result node1 ok hello from node1
	// ok: 1 error: <nil>
}
