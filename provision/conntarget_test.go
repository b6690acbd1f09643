package provision_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// paramDialer is a connection type with its own variables.
type paramDialer struct{ local.Dialer }

func (paramDialer) Params() transport.ConnParams {
	return transport.ConnParams{Host: []string{"ansible_box_host", "ansible_host"}, User: []string{"ansible_box_user"},
		Port: []string{"ansible_box_port"}, Options: []transport.ConnOption{{Name: "flavour", Vars: []string{"ansible_box_flavour", "box_flavour"}}}}
}

// addrDialer is a connection type that declares no variables: it reads
// Ansible's for every connection that logs in to an address.
type addrDialer struct{ transport.Dialer }

func vars(m map[string]any) provision.VarLookup {
	return func(name string) (any, bool, error) { v, ok := m[name]; return v, ok, nil }
}

// TestResolveConnection: ansible_connection, then the keyword, then ssh
// pick the type, aliases resolved; each type reads its own variables.
func TestResolveConnection(t *testing.T) {
	conns := transport.NewConnections().Add("ssh", addrDialer{local.Dialer{}}, "smart", "paramiko").Add("local", local.Dialer{}).
		Add("box", paramDialer{}, "vendor.box")
	cases := []struct {
		name string
		vars map[string]any
		kw   provision.ConnKeywords
		want string // Type Host User Port Options
	}{
		{"default is ssh", map[string]any{"ansible_host": "10.0.0.1", "ansible_user": "u", "ansible_port": 2222}, provision.ConnKeywords{}, "ssh 10.0.0.1 u 2222 map[]"},
		{"keyword under variable", map[string]any{"ansible_connection": "paramiko"}, provision.ConnKeywords{Connection: "local"}, "ssh h1  0 map[]"},
		{"keyword", nil, provision.ConnKeywords{Connection: "smart", User: "kw", Port: "22"}, "ssh h1 kw 22 map[]"},
		{"alias and params", map[string]any{"ansible_connection": "vendor.box", "ansible_box_host": "c1", "ansible_host": "no",
			"ansible_user": "not read", "ansible_box_port": "9", "box_flavour": "mint"}, provision.ConnKeywords{User: "kw"}, "box c1 kw 9 map[flavour:mint]"},
		{"params fall back", map[string]any{"ansible_connection": "box"}, provision.ConnKeywords{}, "box h1  0 map[]"},
		{"local reads nothing", map[string]any{"ansible_connection": "local", "ansible_host": "x"}, provision.ConnKeywords{}, "local   0 map[]"},
	}
	for _, c := range cases {
		got, err := provision.ResolveConnection(conns, nil, "h1", vars(c.vars), c.kw)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		s := strings.Join([]string{got.Type, got.Target.Host, got.Target.User}, " ") + " " +
			strings.TrimSpace(strings.Join([]string{itoa(got.Target.Port), mapString(got.Target.Options)}, " "))
		if s != c.want {
			t.Errorf("%s: got %q, want %q", c.name, s, c.want)
		}
		if got.Target.Name != "h1" {
			t.Errorf("%s: target named %q", c.name, got.Target.Name)
		}
	}
	_, err := provision.ResolveConnection(conns, nil, "h1", vars(map[string]any{"ansible_connection": "winrm"}), provision.ConnKeywords{})
	var unknown *transport.UnknownConnectionError
	if !errors.As(err, &unknown) || err.Error() != "the connection plugin 'winrm' was not found" || strings.Join(unknown.Known, ", ") != "box, local, ssh" {
		t.Errorf("unknown type: %v", err)
	}
	if _, err := provision.ResolveConnection(conns, nil, "h1", vars(map[string]any{"ansible_connection": "box", "ansible_box_port": "x"}), provision.ConnKeywords{}); err == nil {
		t.Error("a port that is not a number was accepted")
	}
}

// TestUnregisteredTypeFailsItsHostOnly: a host whose connection type is
// not registered fails at its first task, a controller's action (debug)
// too, in Ansible's words; the others run.
func TestUnregisteredTypeFailsItsHostOnly(t *testing.T) {
	out, recap, err := play(t, "ok ansible_connection=local\nodd ansible_connection=winrm\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg=hi
    - command: "true"
`, func(r *provision.Runner) { r.Connections = transport.NewConnections().Add("local", local.Dialer{}) })
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["ok"]; s.OK != 2 || s.Failed != 0 {
		t.Errorf("ok: %+v", *s)
	}
	if s := recap.Stats["odd"]; s.Failed != 1 || s.OK != 0 {
		t.Errorf("odd: %+v", *s)
	}
	if !strings.Contains(out, `fatal: [odd]: FAILED! => {"msg": "the connection plugin 'winrm' was not found"}`) {
		t.Errorf("output does not say why:\n%s", out)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func mapString(m map[string]any) string { return fmt.Sprint(m) }

// sshArgsDialer reads ssh's arguments as the ssh type does.
type sshArgsDialer struct{ transport.Dialer }

func (sshArgsDialer) Params() transport.ConnParams {
	p := transport.DefaultParams
	p.PluginOptions = []string{"ssh_args", "ssh_common_args", "ssh_extra_args"}
	return p
}

// TestResolvePluginOptions: the options of Ansible's connection plugin a
// type takes come from the host's variables, else the environment (or
// ansible.cfg, or the command line), as text; one at its documented
// default (ssh_args' compression and connection sharing) or empty is left
// out.
func TestResolvePluginOptions(t *testing.T) {
	conns := transport.NewConnections().Add("ssh", sshArgsDialer{local.Dialer{}})
	for _, c := range []struct {
		name string
		env  map[string]string
		vars map[string]any
		want string
	}{
		{"defaults left out", nil, nil, "map[]"},
		{"documented default left out", map[string]string{"ANSIBLE_SSH_ARGS": "-C -o ControlMaster=auto -o ControlPersist=60s"}, nil, "map[]"},
		{"environment", map[string]string{"ANSIBLE_SSH_ARGS": "-o A=1", "ANSIBLE_SSH_EXTRA_ARGS": "-o B=2"}, nil,
			"map[ssh_args:-o A=1 ssh_extra_args:-o B=2]"},
		{"variable over environment", map[string]string{"ANSIBLE_SSH_COMMON_ARGS": "-o env=1"},
			map[string]any{"ansible_ssh_common_args": "-o var=1", "ansible_ssh_args": ""}, "map[ssh_common_args:-o var=1]"},
	} {
		cfg, err := config.Load(config.Options{Getenv: func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		got, err := provision.ResolveConnection(conns, cfg, "h1", vars(c.vars), provision.ConnKeywords{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s := mapString(got.Target.Options); s != c.want {
			t.Errorf("%s: options %s, want %s", c.name, s, c.want)
		}
	}
}

// boxDialer is a connection type that cannot reach its hosts.
type boxDialer struct{ paramDialer }

func (boxDialer) Connect(context.Context, transport.Target) (transport.Conn, error) {
	return nil, errors.New("no box here")
}

// TestConnectionRolesByRegistry: the engine knows no connection type by
// name. A registry whose default type is "box" and whose controller type
// is "here" sends an unnamed host to box ("smart" too) and delegate_to:
// localhost to here, and ansible_connection shows box.
func TestConnectionRolesByRegistry(t *testing.T) {
	conns := transport.NewConnections().Add("box", boxDialer{}).Add("here", local.Dialer{}, "vendor.here").
		SetDefault("box").SetLocal("here")
	for _, kw := range []string{"", "smart"} {
		got, err := provision.ResolveConnection(conns, nil, "h1", vars(nil), provision.ConnKeywords{Connection: kw})
		if err != nil || got.Type != "box" {
			t.Errorf("keyword %q: %q %v", kw, got.Type, err)
		}
	}
	if !conns.IsLocal("vendor.here") || conns.IsLocal("box") || conns.IsLocal("local") {
		t.Error("IsLocal does not follow SetLocal")
	}
	out, recap, err := play(t, "h1\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: echo hello
      delegate_to: localhost
      register: r
    - debug: msg="{{ r.stdout }} {{ ansible_connection }}"
    - command: echo unreachable
`, func(r *provision.Runner) { r.Connections = conns })
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["h1"]; s.OK != 2 || s.Unreachable != 1 {
		t.Errorf("h1: %+v\n%s", *s, out)
	}
	if !strings.Contains(out, `"msg": "hello box"`) || !strings.Contains(out, "no box here") {
		t.Errorf("the roles did not go to the registry's types:\n%s", out)
	}
}

// An ssh type registered under a name of its own (a second ssh with
// other settings) resolves: Ansible has no plugin of that name, so it
// reads no plugin options, where ssh itself does.
func TestResolvePluginOptionsOwnName(t *testing.T) {
	conns := transport.NewConnections().Add("ssh", sshArgsDialer{local.Dialer{}}).Add("strict_ssh", sshArgsDialer{local.Dialer{}})
	v := vars(map[string]any{"ansible_ssh_common_args": "-o var=1"})
	for kind, want := range map[string]string{"ssh": "map[ssh_common_args:-o var=1]", "strict_ssh": "map[]"} {
		got, err := provision.ResolveConnection(conns, nil, "h1", v, provision.ConnKeywords{Connection: kind})
		if err != nil || got.Type != kind {
			t.Fatalf("%s: %v %v", kind, got.Type, err)
		}
		if s := mapString(got.Target.Options); s != want {
			t.Errorf("%s: options %s, want %s", kind, s, want)
		}
	}
}
