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
// conns, and the type's Dialer says which variables it reads
// (transport.Params; transport.DefaultParams without it): where its
// address, user, port, password and key come from, its own options, and
// the options of Ansible's connection plugin of its name it takes from
// the configuration cfg (nil: Ansible's defaults). name is the inventory
// hostname. The engine resolves every connection it opens through it,
// and so do agents; an embedder may call it to reach a host as tender
// would.
func ResolveConnection(conns *transport.Connections, cfg *config.Config, name string, vars VarLookup, kw ConnKeywords) (Connection, error) {
	kind, err := connectionKind(conns, vars, kw)
	if err != nil {
		return Connection{}, err
	}
	canon, d, err := conns.Resolve(kind)
	if err != nil {
		return Connection{}, err
	}
	c := Connection{Type: canon, Dialer: d, Target: transport.Target{Name: name}}
	p := transport.ParamsOf(d)
	t := &c.Target
	var port, key string
	for _, f := range []struct {
		dst  *string
		keys []string
		def  string
	}{{&t.Host, p.Host, name}, {&t.User, p.User, kw.User}, {&port, p.Port, kw.Port}, {&t.Password, p.Password, ""}, {&key, p.KeyFile, ""}} {
		if f.keys == nil {
			continue
		}
		if *f.dst, err = firstVar(vars, f.keys); err != nil {
			return c, err
		}
		if *f.dst == "" {
			*f.dst = f.def
		}
	}
	if port != "" {
		if t.Port, err = strconv.Atoi(port); err != nil {
			return c, fmt.Errorf("%s %q is not a number", p.Port[0], port)
		}
	}
	if key != "" {
		t.KeyFiles = []string{key}
	}
	for _, o := range p.Options {
		for _, k := range o.Vars {
			v, ok, err := vars(k)
			if err != nil {
				return c, fmt.Errorf("%s: %w", k, err)
			}
			if ok && v != nil {
				setOption(t, o.Name, v)
				break
			}
		}
	}
	if len(p.PluginOptions) > 0 && cfg == nil {
		cfg = config.Defaults()
	}
	if !config.HasPlugin("connection", canon) {
		// A type registered under a name of its own (a second ssh
		// with other settings) has no Ansible plugin to read options of.
		p.PluginOptions = nil
	}
	for _, o := range p.PluginOptions {
		v, err := cfg.PluginOption("connection", canon, o, vars)
		if err != nil {
			return c, err
		}
		if s := expr.Str(v); v != nil && s != "" && s != pluginDefault(canon, o) {
			setOption(t, o, s)
		}
	}
	return c, nil
}

// firstVar is the first of keys that is set, as text ("" when none is).
func firstVar(vars VarLookup, keys []string) (string, error) {
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

// setOption sets one of t's Options.
func setOption(t *transport.Target, name string, v any) {
	if t.Options == nil {
		t.Options = map[string]any{}
	}
	t.Options[name] = v
}

// pluginDefault is the documented default of option name of Ansible's
// connection plugin ptype, as text.
func pluginDefault(plugin, name string) string {
	if d, ok := config.PluginOptionDefault("connection", plugin, name); ok {
		return expr.Str(d)
	}
	return ""
}

// connectionKind is the connection type a host's variables and the
// keywords in force name: ansible_connection, else kw.Connection, else
// conns' default type (which smart picks too, as in Ansible).
func connectionKind(conns *transport.Connections, vars VarLookup, kw ConnKeywords) (string, error) {
	v, ok, err := vars("ansible_connection")
	if err != nil {
		return "", fmt.Errorf("ansible_connection: %w", err)
	}
	kind := kw.Connection
	if ok && v != nil && expr.Str(v) != "" {
		kind = expr.Str(v)
	}
	return conns.Pick(kind), nil
}
