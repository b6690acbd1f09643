package collection

import (
	_ "embed"
	"strings"
	"sync"
)

// routingText is ansible.builtin's plugin routing (gen.py): where
// ansible-core 2.14 sends the short names of the modules and plugins that
// moved to collections.
//
//go:embed routing.txt
var routingText string

var (
	builtinOnce sync.Once
	builtinMeta *runtimeMeta
)

// builtinRouting is routingText read, once.
func builtinRouting() *runtimeMeta {
	builtinOnce.Do(func() {
		m := &runtimeMeta{PluginRouting: map[string]map[string]route{}, ActionGroups: map[string][]any{}}
		for _, line := range strings.Split(routingText, "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "group" {
				var members, extends []any
				for _, w := range f[2:] {
					if g, ok := strings.CutPrefix(w, "+"); ok {
						extends = append(extends, g)
					} else {
						members = append(members, w)
					}
				}
				if len(extends) > 0 {
					members = append(members, map[string]any{"metadata": map[string]any{"extend_group": extends}})
				}
				m.ActionGroups[f[1]] = members
				continue
			}
			if len(f) != 3 || strings.HasPrefix(line, "#") {
				continue
			}
			kind := m.PluginRouting[f[0]]
			if kind == nil {
				kind = map[string]route{}
				m.PluginRouting[f[0]] = kind
			}
			if f[2] == "-" {
				kind[f[1]] = route{Tombstone: &struct {
					WarningText string `yaml:"warning_text"`
				}{}}
			} else {
				kind[f[1]] = route{Redirect: f[2]}
			}
		}
		builtinMeta = m
	})
	return builtinMeta
}

// BuiltinRedirect returns where ansible.builtin sends a short name of
// kind (modules, filter, lookup, …): the fully qualified name in a
// collection; ok is false when it has no such route.
func BuiltinRedirect(kind, name string) (string, bool) {
	r := builtinRouting().route(kind, name)
	return r.Redirect, r.Redirect != ""
}
