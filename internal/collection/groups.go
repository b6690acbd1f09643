package collection

import "strings"

// maxGroupDepth bounds the groups an action group extends, transitively.
const maxGroupDepth = 16

// ActionGroup lists the modules of an action group, as module_defaults
// names one (group/NAME): name is ns.coll.group (an unqualified name is
// ansible.builtin's: group/aws), its members the fully qualified names
// its collection's meta/runtime.yml lists (a short one is the
// collection's), and those of the groups it extends (extend_group).
// A group no installed collection defines has none.
func (f *Finder) ActionGroup(name string) []string {
	var out []string
	f.actionGroup(name, map[string]bool{}, 0, &out)
	return out
}

func (f *Finder) actionGroup(name string, seen map[string]bool, depth int, out *[]string) {
	coll, group := "ansible.builtin", name
	if ref, ok := ParseRef(name, false); ok && ref.Subdirs == "" {
		coll, group = ref.Collection, ref.Resource
	} else if strings.Contains(name, ".") {
		return
	}
	key := coll + "." + group
	if seen[key] || depth > maxGroupDepth {
		return
	}
	seen[key] = true
	var meta *runtimeMeta
	if Synthetic(coll) {
		meta = builtinRouting()
	} else {
		dir, ok := f.Collection(coll)
		if !ok {
			return
		}
		var err error
		if meta, err = f.meta(coll, dir); err != nil {
			return
		}
	}
	for _, m := range meta.ActionGroups[group] {
		switch v := m.(type) {
		case string:
			if _, fq := ParseRef(v, false); !fq {
				v = coll + "." + v
			}
			*out = append(*out, v)
		case map[string]any:
			md, _ := v["metadata"].(map[string]any)
			ext := md["extend_group"]
			if s, ok := ext.(string); ok {
				ext = []any{s}
			}
			list, _ := ext.([]any)
			for _, g := range list {
				gs, ok := g.(string)
				if !ok {
					continue
				}
				if _, fq := ParseRef(gs, false); !fq {
					gs = coll + "." + gs
				}
				f.actionGroup(gs, seen, depth+1, out)
			}
		}
	}
}
