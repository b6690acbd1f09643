package playbooks

import (
	"maps"
	"slices"

	"go.yaml.in/yaml/v3"
)

// varsPromptKeys are the keys a vars_prompt entry may have, as Ansible's.
var varsPromptKeys = []string{"name", "prompt", "default", "private", "confirm", "encrypt", "salt_size", "salt", "unsafe"}

// varsPrompt reads a play's vars_prompt: a list of mappings (or one
// mapping), each naming its variable and using only Ansible's keys. The
// values stay templates: the engine renders them when the play starts.
func (l *loader) varsPrompt(file string, n *yaml.Node) []map[string]any {
	var list []any
	switch x := l.value(file, n).(type) {
	case nil:
		return nil
	case map[string]any:
		list = []any{x}
	case []any:
		list = x
	default:
		l.errs.add(file, n, "vars_prompt must be a list of dictionaries (or one dictionary), not %s", typeName(x))
		return nil
	}
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			l.errs.add(file, n, "vars_prompt must be a list of dictionaries, and holds %s", typeName(e))
			return nil
		}
		if _, ok := m["name"]; !ok {
			l.errs.add(file, n, "Invalid vars_prompt data structure, missing 'name' key")
			return nil
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !slices.Contains(varsPromptKeys, k) {
				l.errs.add(file, n, "Invalid vars_prompt data structure, found unsupported key '%s'", k)
				return nil
			}
		}
		out = append(out, m)
	}
	return out
}
