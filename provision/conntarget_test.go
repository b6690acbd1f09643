package provision_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

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

func vars(m map[string]any) provision.VarLookup {
	return func(name string) (any, bool, error) { v, ok := m[name]; return v, ok, nil }
}

// TestResolveConnection: ansible_connection, then the keyword, then ssh
// pick the type, aliases resolved; each type reads its own variables.
func TestResolveConnection(t *testing.T) {
	conns := transport.NewConnections().Add("ssh", local.Dialer{}, "smart", "paramiko").Add("local", local.Dialer{}).
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
