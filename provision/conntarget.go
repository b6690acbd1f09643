package provision

import (
	"fmt"
	"strconv"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/transport"
)

// ConnKeywords are the connection keywords in force for a task: the
// remote_user, connection and port of its play, block or task, or of the
// run's defaults. A host's own connection variables win over them.
type ConnKeywords struct{ User, Connection, Port string }

// Connection is where and how one host is reached.
type Connection struct {
	// Type is the connection type's registered name (ssh, local,
	// docker, ...), aliases resolved.
	Type string
	// Dialer opens it; Target is what to give the Dialer.
	Dialer transport.Dialer
	Target transport.Target
}

// VarLookup looks a host variable up, templated: ok is false when it is
// not set. An expr.Scope's Lookup is one.
type VarLookup func(name string) (v any, ok bool, err error)

// ResolveConnection turns a host's variables and the keywords in force
// into its Connection, as Ansible's connection plugins read them.
// ansible_connection (else kw.Connection, else ssh) names the type among
// conns. The ssh type reads ansible_host, ansible_port, ansible_user, the
// password and key variables, and its arguments (ansible_ssh_common_args,
// ansible_ssh_extra_args, and ssh_args and the rest from cfg, which may
// be nil for Ansible's defaults); local reads nothing; any other type
// reads the variables its Dialer's transport.Params name. name is the
// inventory hostname. The engine resolves every connection it opens
// through it, and so do agents; an embedder may call it to reach a host
// as tender would.
func ResolveConnection(conns *transport.Connections, cfg *config.Config, name string, vars VarLookup, kw ConnKeywords) (Connection, error) {
	first := func(keys []string) (string, error) {
		for _, k := range keys {
			v, ok, err := vars(k)
			if err != nil {
				return "", fmt.Errorf("%s: %w", k, err)
			}
			if ok && v != nil {
				return expr.Str(v), nil
			}
		}
		return "", nil
	}
	kind, err := connectionKind(vars, kw)
	if err != nil {
		return Connection{}, err
	}
	canon, d, err := conns.Resolve(kind)
	if err != nil {
		return Connection{}, err
	}
	c := Connection{Type: canon, Dialer: d, Target: transport.Target{Name: name}}
	switch canon {
	case "local":
		return c, nil
	case "ssh":
		if c.Target, err = sshTarget(name, vars, first, kw); err != nil {
			return c, err
		}
		if cfg == nil {
			cfg = config.Defaults()
		}
		return c, sshArgs(&c.Target, cfg, vars)
	}
	p := transport.ParamsOf(d)
	t := &c.Target
	var port string
	for _, f := range []struct {
		dst  *string
		keys []string
		kw   string
	}{{&t.Host, p.Host, name}, {&t.User, p.User, kw.User}, {&port, p.Port, kw.Port}, {&t.Password, p.Password, ""}} {
		if *f.dst, err = first(f.keys); err != nil {
			return c, err
		}
		if *f.dst == "" {
			*f.dst = f.kw
		}
	}
	if port != "" {
		if t.Port, err = strconv.Atoi(port); err != nil {
			return c, fmt.Errorf("port %q is not a number", port)
		}
	}
	for _, o := range p.Options {
		for _, k := range o.Vars {
			v, ok, err := vars(k)
			if err != nil {
				return c, fmt.Errorf("%s: %w", k, err)
			}
			if ok && v != nil {
				if t.Options == nil {
					t.Options = map[string]any{}
				}
				t.Options[o.Name] = v
				break
			}
		}
	}
	return c, nil
}

// connectionKind is the connection type a host's variables and the
// keywords in force name: ansible_connection, else kw.Connection, else
// ssh (smart is ssh wherever OpenSSH is, as in Ansible).
func connectionKind(vars VarLookup, kw ConnKeywords) (string, error) {
	v, ok, err := vars("ansible_connection")
	if err != nil {
		return "", fmt.Errorf("ansible_connection: %w", err)
	}
	kind := kw.Connection
	if ok && v != nil && expr.Str(v) != "" {
		kind = expr.Str(v)
	}
	if kind == "" || kind == "smart" {
		kind = "ssh"
	}
	return kind, nil
}

// sshTarget reads the ssh connection's variables, falling back on the
// keywords kw for the user and port.
func sshTarget(name string, vars VarLookup, str func([]string) (string, error), kw ConnKeywords) (transport.Target, error) {
	t := transport.Target{Name: name}
	var err error
	if t.Host, err = str([]string{"ansible_host", "ansible_ssh_host"}); err != nil {
		return t, err
	}
	if t.Host == "" {
		t.Host = name
	}
	port, err := str([]string{"ansible_port", "ansible_ssh_port"})
	if err != nil {
		return t, err
	}
	if port == "" {
		port = kw.Port
	}
	if port != "" {
		if t.Port, err = strconv.Atoi(port); err != nil {
			return t, fmt.Errorf("ansible_port %q is not a number", port)
		}
	}
	if t.User, err = str([]string{"ansible_user", "ansible_ssh_user", "ansible_remote_user"}); err != nil {
		return t, err
	}
	if t.User == "" {
		t.User = kw.User
	}
	if t.Password, err = str([]string{"ansible_password", "ansible_ssh_pass", "ansible_ssh_password"}); err != nil {
		return t, err
	}
	key, err := str([]string{"ansible_ssh_private_key_file", "ansible_private_key_file"})
	if err != nil {
		return t, err
	}
	if key != "" {
		t.KeyFiles = []string{key}
	}
	if t.CommonArgs, err = str([]string{"ansible_ssh_common_args"}); err != nil {
		return t, err
	}
	if t.ExtraArgs, err = str([]string{"ansible_ssh_extra_args"}); err != nil {
		return t, err
	}
	return t, nil
}
