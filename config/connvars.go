package config

import (
	"slices"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// connectionProps are the properties of Ansible's play context whose
// variables it adds to a task's variables, with the type it gives them.
// (The others hold nothing tender's runs set: become's are never added,
// ansible_connection and the ssh arguments have a single name each.)
var connectionProps = map[string]string{
	"remote_addr": "str", "remote_user": "str", "password": "str", "port": "int",
	"pipelining": "bool", "timeout": "int", "private_key_file": "str",
}

// ConnectionVar returns the value Ansible gives the connection variable
// name (ansible_user, ansible_ssh_port, ...) in a task's variables when
// the host does not define it: before a task runs, Ansible's play context
// takes each connection property from the first of its variables the host
// defines (MAGIC_VARIABLE_MAPPING: ansible_ssh_user, then ansible_user),
// else from the task's remote_user keyword (remoteUser, "" when unset),
// ansible-playbook's command line or the settings, and adds every
// variable of the property the host lacks. vars reads the host's
// variables, rendered. ok is false when Ansible adds no such variable
// (the property has no value, or name is not one of them). The port
// keyword is not among them: Ansible gives it to the connection, not to
// the play context.
func (c *Config) ConnectionVar(name, remoteUser string, vars func(string) (any, bool, error)) (any, bool, error) {
	mapping := constants["MAGIC_VARIABLE_MAPPING"].(map[string]any)
	prop := ""
	var names []any
	for p := range connectionProps {
		if list := mapping[p].([]any); slices.Contains(list, any(name)) {
			prop, names = p, list
		}
	}
	if prop == "" {
		return nil, false, nil
	}
	var v any
	for _, n := range names {
		x, ok, err := vars(n.(string))
		if err != nil {
			return nil, false, err
		}
		if ok {
			v = x
			break
		}
	}
	if v == nil {
		v = c.connectionDefault(prop, remoteUser, vars)
	}
	if v == nil {
		return nil, false, nil
	}
	switch connectionProps[prop] {
	case "int":
		n, err := toInt(v)
		if err != nil {
			return nil, false, newError(Invalid, "the field '%s' has an invalid value (%s), and could not be converted to an int.The error was: %s", prop, pyfmt.Str(v), err)
		}
		return n, true, nil
	case "bool":
		b, err := toBool(v)
		return b, err == nil, err
	}
	return pyfmt.Str(v), true, nil
}

// connectionDefault is what the play context holds for prop when the
// host defines none of its variables.
func (c *Config) connectionDefault(prop, remoteUser string, vars func(string) (any, bool, error)) any {
	switch prop {
	case "remote_addr":
		v, _, _ := vars("inventory_hostname")
		return v
	case "remote_user":
		if remoteUser != "" {
			return remoteUser
		}
		return c.cli["remote_user"]
	case "port":
		return c.values["DEFAULT_REMOTE_PORT"].value
	case "pipelining":
		return c.values["ANSIBLE_PIPELINING"].value
	case "timeout", "private_key_file":
		return c.cli[prop]
	}
	return nil
}

// Task is the configuration as the config lookup reads it in one task:
// a plugin option's variables are the host's, and for those it lacks,
// the connection variables Ansible adds before the task runs
// (ConnectionVar).
type Task struct {
	c          *Config
	remoteUser func() string
	rendered   func(string) (any, bool, error)
}

// ForTask returns the configuration of a task whose remote_user keyword
// remoteUser returns (called when needed; "" when unset) and whose host's
// variables rendered reads, rendered.
func (c *Config) ForTask(remoteUser func() string, rendered func(string) (any, bool, error)) *Task {
	return &Task{c: c, remoteUser: remoteUser, rendered: rendered}
}

// Setting is Config.Setting.
func (t *Task) Setting(name string) (any, error) { return t.c.Setting(name) }

// PluginOption is Config.PluginOption with the connection variables
// Ansible adds to a task's variables.
func (t *Task) PluginOption(ptype, pname, name string, vars func(string) (any, bool, error)) (any, error) {
	return t.c.PluginOption(ptype, pname, name, func(n string) (any, bool, error) {
		if v, ok, err := vars(n); ok || err != nil {
			return v, ok, err
		}
		return t.c.ConnectionVar(n, t.remoteUser(), t.rendered)
	})
}
