package config

import (
	"slices"

	"github.com/tender-sh/tender/internal/yaml11"
)

// Setting returns the value of a base setting (DEFAULT_FORKS) as Ansible's
// config lookup reads it, which is any attribute of Ansible's constants
// module: the settings, CONFIG_FILE (the ansible.cfg read, nil for none),
// and the module's other constants (COLOR_CODES, LOCALHOST, ...; tuples
// are lists). An *Error says why there is no value: the name is unknown
// (Missing), names a function (Failed, as Ansible refuses it), or names
// a value tender cannot give (Refused). The value is the caller's to keep.
func (c *Config) Setting(name string) (any, error) {
	if name == "CONFIG_FILE" {
		if c.file == "" {
			return nil, nil
		}
		return c.file, nil
	}
	if r, ok := c.values[name]; ok {
		return yaml11.Copy(r.value), r.err
	}
	if v, ok := constants[name]; ok {
		return yaml11.Copy(v), nil
	}
	if slices.Contains(callableConstants, name) {
		return nil, newError(Failed, "Invalid setting \"%s\" attempted", name)
	}
	if what, ok := refusedConstants[name]; ok {
		return nil, newError(Refused, "tender cannot give %s: in Ansible it is %s, not a setting", name, what)
	}
	return nil, newError(Missing, "module 'ansible.constants' has no attribute '%s'", name)
}

// PluginOption returns the value of option name of the plugin pname of
// type ptype (connection ssh, shell sh, ...) for a host whose variables
// vars reads (nil: none), as the config lookup does with plugin_type and
// plugin_name: the option's host variables, then ansible-playbook's
// command line, the environment, ansible.cfg, the default. An *Error says
// why there is none: a plugin ansible-core does not ship (Failed), an
// option the plugin does not have (Missing), a value of the wrong type or
// not among the choices (Invalid), a required option without a value
// (Unhandled).
func (c *Config) PluginOption(ptype, pname, name string, vars func(name string) (any, bool, error)) (any, error) {
	short := shortName(pname)
	p, ok := pluginIndex()[ptype+"/"+short]
	if !ok {
		return nil, newError(Failed, "Unable to load %s plugin \"%s\"", ptype, pname)
	}
	i := slices.IndexFunc(p.Options, func(s Setting) bool { return s.Name == name })
	if i < 0 {
		return nil, newError(Missing, "Requested entry (%s) was not defined in configuration.", entry(ptype, short, name))
	}
	v, _, err := c.resolve(ptype, short, &p.Options[i], vars)
	if err == errRefused {
		return nil, newError(Refused, "tender cannot give the option %s of the %s plugin %s: its type is %s", name, ptype, short, p.Options[i].Type)
	}
	return v, err
}

// OptionOf is PluginOption for an option ansible-core does not ship but
// documents elsewhere (a collection's plugin that tender implements, as
// ansible.posix's callbacks): s describes it as the plugin's
// documentation does, and its value is read from the same places, in the
// same order, with the same conversions and errors.
func (c *Config) OptionOf(ptype, pname string, s Setting) (any, error) {
	v, _, err := c.resolve(ptype, shortName(pname), &s, nil)
	if err == errRefused {
		return nil, newError(Refused, "tender cannot give the option %s of the %s plugin %s: its type is %s", s.Name, ptype, shortName(pname), s.Type)
	}
	return v, err
}
