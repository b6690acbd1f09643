package expr

import (
	"encoding/json"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
)

// PluginSource supplies the filters and tests that tender does not ship
// (the Python plugins of the content, run through a bridge): asked, by
// the name a template writes (less an ansible.builtin. or ansible.legacy.
// prefix), only for a name tender's own tables and the registered
// plugins do not have.
type PluginSource interface {
	Filter(name string) (Filter, bool)
	Test(name string) (Test, bool)
	Lookup(name string) (ScopedLookup, bool)
}

// ScopedLookup is a lookup plugin of a PluginSource: vars are the
// variables of the scope it runs in (Ansible's variables=), hostvars and
// vars left out and those that do not render skipped.
type ScopedLookup func(env *Env, vars map[string]any, terms []any, opts map[string]any) ([]any, error)

// pluginLookup is the lookup of name from env's PluginSource.
func (env *Env) pluginLookup(name string) (ScopedLookup, bool) {
	if env == nil || env.Plugins == nil {
		return nil, false
	}
	return env.Plugins.Lookup(name)
}

// Variables lists what a scope defines, as a Python plugin gets it
// (Ansible's task variables): hostvars and vars left out, names whose
// value does not render skipped.
func Variables(s Scope) map[string]any { return scopeVars(s) }

// scopeVars lists what a scope defines, as a plugin lookup gets it:
// the names of the scope under the template's own frames, and the
// frames' (a loop's, a macro's).
func scopeVars(s Scope) map[string]any {
	out := map[string]any{}
	var frames []*local
	for {
		l, ok := s.(*local)
		if !ok {
			break
		}
		frames = append(frames, l)
		s = l.parent
	}
	k, ok := s.(Keyed)
	if !ok {
		return out
	}
	for _, name := range k.Keys() {
		if name == "hostvars" || name == "vars" {
			continue
		}
		if v, ok, err := s.Lookup(name); ok && err == nil {
			if _, undef := v.(*undefined); !undef {
				out[name] = v
			}
		}
	}
	for i := len(frames) - 1; i >= 0; i-- {
		for name, v := range frames[i].vars {
			if _, undef := v.(*undefined); !undef {
				out[name] = v
			}
		}
	}
	return out
}

// PluginLookupError is the error of a lookup plugin that raised, as
// Ansible's templar treats it by category: "undefined" (an undefined
// variable) and "options" (bad options) fail whatever errors= says,
// "lookup" (AnsibleLookupError: a failure the plugin meant) keeps its
// message, anything else is an unhandled exception of class.
func PluginLookupError(category, class, msg string) error {
	switch category {
	case "undefined", "options":
		return &fatalError{msg: msg}
	case "lookup":
		return &lookupFailure{msg: msg}
	}
	return &ansibleError{class: class, msg: msg}
}

// pluginFilter is the filter of name from env's PluginSource.
func (env *Env) pluginFilter(name string) (Filter, bool) {
	if env == nil || env.Plugins == nil {
		return nil, false
	}
	return env.Plugins.Filter(name)
}

// pluginTest is the test of name from env's PluginSource.
func (env *Env) pluginTest(name string) (Test, bool) {
	if env == nil || env.Plugins == nil {
		return nil, false
	}
	return env.Plugins.Test(name)
}

// provides reports whether env's PluginSource has every plugin of uses.
func (env *Env) provides(uses []pluginUse) bool {
	for _, u := range uses {
		ok := false
		if u.test {
			_, ok = env.pluginTest(u.name)
		} else {
			_, ok = env.pluginFilter(u.name)
		}
		if !ok {
			return false
		}
	}
	return len(uses) > 0
}

// ToBridge writes v as the JSON a Python plugin bridge reads: mappings in
// their order, text marked unsafe as {"__tender_unsafe__": text}, the
// template language's own values as to_json writes them.
func ToBridge(v any) (string, error) {
	o := pyfmt.JSONOptions{Ordered: true, MaxLen: maxSize}
	o.Convert = func(v any) (any, error) {
		if u, ok := v.(yaml11.Unsafe); ok {
			return map[string]any{"__tender_unsafe__": string(u)}, nil
		}
		return jsonValue(v)
	}
	return pyfmt.JSON(v, o)
}

// FromBridge reads a value a Python plugin bridge wrote (ToBridge's
// form): numbers as Python's, {"__tender_unsafe__": text} as unsafe text,
// {"__tender_pairs__": [[k, v], …]} as a mapping whose keys are their text.
func FromBridge(data []byte) (any, error) {
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	v, err := pydict.DecodeJSON(d)
	if err != nil {
		return nil, err
	}
	if v, err = fromJSON(v); err != nil {
		return nil, err
	}
	return untag(v, 0)
}

func untag(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errorf("a value nested more than %d deep", maxDepth)
	}
	switch t := v.(type) {
	case []any:
		for i, x := range t {
			y, err := untag(x, depth+1)
			if err != nil {
				return nil, err
			}
			t[i] = y
		}
		return t, nil
	case map[string]any:
		if s, ok := t["__tender_unsafe__"].(string); ok && len(t) == 1 {
			return yaml11.Unsafe(s), nil
		}
		if pairs, ok := t["__tender_pairs__"].([]any); ok && len(t) == 1 {
			b := pydict.NewBuilder(len(pairs))
			for _, p := range pairs {
				kv, ok := p.([]any)
				if !ok || len(kv) != 2 {
					return nil, errorf("a malformed mapping from a plugin")
				}
				val, err := untag(kv[1], depth+1)
				if err != nil {
					return nil, err
				}
				b.Set(Str(kv[0]), val)
			}
			return b.Map(), nil
		}
		for _, k := range pydict.Keys(t) {
			y, err := untag(t[k], depth+1)
			if err != nil {
				return nil, err
			}
			t[k] = y
		}
		return t, nil
	}
	return v, nil
}
