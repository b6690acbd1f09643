package expr

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ConfigSource is Ansible's configuration as the config lookup reads it
// (tender's config.Config is one). Its errors may say what Ansible makes
// of them through a method ErrorClass() string: "missing" (the name is
// not a setting: on_missing decides), "invalid" or "refused" (the lookup
// fails whatever errors= says), "failed" (the lookup fails with the
// message as it is); any other error is an unhandled exception of the
// plugin.
type ConfigSource interface {
	// Setting returns the value of one of Ansible's settings (or another
	// of its constants): lookup('config', name).
	Setting(name string) (any, error)
	// PluginOption returns the value of option name of plugin pname of
	// type ptype for a host whose variables vars reads.
	PluginOption(ptype, pname, name string, vars func(name string) (any, bool, error)) (any, error)
}

// configPluginTypes are the plugin types the config lookup's plugin_type
// takes.
var configPluginTypes = []string{"become", "cache", "callback", "cliconf", "connection", "httpapi", "inventory", "lookup", "netconf", "shell", "vars"}

// configLookup is ansible-core's config lookup: the value of each term,
// a setting's name, or with plugin_type and plugin_name the name of an
// option of that plugin, whose value may come from the host's variables
// (ansible_user, ansible_port, ..., unrendered, as Ansible passes them). A name that is not a setting fails
// (on_missing=error), is skipped with a warning (warn) or silently
// (skip).
func configLookup(ev *evaluator, terms []any, opts map[string]any) ([]any, error) {
	missing, err := configOption(opts, "on_missing", "error", []string{"error", "skip", "warn"})
	if err != nil {
		return nil, err
	}
	ptype, err := configOption(opts, "plugin_type", "", configPluginTypes)
	if err != nil {
		return nil, err
	}
	pname, err := configOption(opts, "plugin_name", "", nil)
	if err != nil {
		return nil, err
	}
	if (ptype != "" || pname != "") && (ptype == "" || pname == "") {
		return nil, fatalf("Both plugin_type and plugin_name are required, cannot use one without the other")
	}
	env := envOf(ev.scope)
	if env.Config == nil {
		return nil, fatalf("the lookup plugin 'config' is not supported here: this template engine was given no configuration (expr.Env.Config)")
	}
	// Ansible hands the lookup the task's variables as they are written:
	// a template in one is not rendered.
	vars := func(name string) (v any, ok bool, err error) {
		if r, isRaw := ev.scope.(rawScope); isRaw {
			v, ok = r.rawLookup(name)
		} else {
			v, ok, err = ev.scope.Lookup(name)
		}
		if s, isText := text(v); isText {
			v = s
		}
		return plain(v), ok, err
	}
	out := []any{}
	for _, t := range terms {
		name, ok := text(t)
		if !ok {
			return nil, fatalf("Invalid setting identifier, \"%s\" is not a string, its a <class '%s'>", Str(t), typeName(t))
		}
		var v any
		if pname != "" {
			v, err = env.Config.PluginOption(ptype, pname, name, vars)
		} else {
			v, err = env.Config.Setting(name)
		}
		if err != nil {
			var classed interface{ ErrorClass() string }
			class := ""
			if errors.As(err, &classed) {
				class = classed.ErrorClass()
			}
			switch class {
			case "missing":
				switch missing {
				case "error":
					return nil, &lookupFailure{fmt.Sprintf("Unable to find setting %s. %s. %s", name, err, err)}
				case "warn":
					if env.Warn != nil {
						env.Warn("Skipping, did not find setting " + name)
					}
				}
				continue
			case "invalid", "refused":
				return nil, fatalf("%s", err)
			case "failed":
				return nil, &lookupFailure{err.Error()}
			}
			return nil, errorf("%s", err)
		}
		out = append(out, v)
	}
	return out, nil
}

// configOption reads a text option of the config lookup as Ansible's
// plugin options are read: a number or boolean is its text, quotes
// around it are dropped, None is the default, and a value outside
// choices fails.
func configOption(opts map[string]any, name, def string, choices []string) (string, error) {
	v, ok := opts[name]
	if !ok || v == nil {
		return def, nil
	}
	var s string
	switch v.(type) {
	case bool, int, float64:
		s = Str(v)
	default:
		t, isText := text(v)
		if !isText {
			return "", fatalf("Invalid type for configuration option plugin_type: lookup plugin: config setting: %s (from Direct): Invalid type provided for \"string\": %s", name, Str(v))
		}
		s = t
	}
	s = unquote(s)
	if choices != nil && !slices.Contains(choices, s) {
		return "", fatalf("Invalid value \"%s\" for configuration option \"plugin_type: lookup plugin: config setting: %s \", valid values are: %s", s, name, strings.Join(choices, ", "))
	}
	return s, nil
}
