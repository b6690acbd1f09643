package inventory

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/pyfmt"
)

// List returns the document `ansible-inventory --list` prints: one entry
// per group reachable from "all" with its "hosts" and "children" (empty
// ones left out, "all" without hosts), and "_meta": {"hostvars": {HOST:
// merged vars}} for every host whose merged variables are not empty.
// Marshal it with JSON to get ansible's exact text.
func (inv *Inventory) List() (map[string]any, error) {
	out := map[string]any{}
	seen := map[*Group]bool{}
	var format func(g *Group)
	format = func(g *Group) {
		entry := map[string]any{}
		if g.Name != "all" && len(g.hosts) > 0 {
			names := make([]any, len(g.hosts))
			for i, h := range g.hosts {
				names[i] = h.Name
			}
			entry["hosts"] = names
		}
		var kids []any
		for _, c := range g.children {
			kids = append(kids, c.Name)
			if !seen[c] {
				format(c)
				seen[c] = true
			}
		}
		if len(kids) > 0 {
			entry["children"] = kids
		}
		if len(entry) > 0 {
			out[g.Name] = entry
		}
	}
	format(inv.groups["all"])
	hv := map[string]any{}
	for _, h := range inv.groups["all"].AllHosts() {
		vars, err := inv.hostVars(h)
		if err != nil {
			return nil, err
		}
		if len(vars) > 0 {
			hv[h.Name] = vars
		}
	}
	out["_meta"] = map[string]any{"hostvars": hv}
	return out, nil
}

// Graph writes the tree `ansible-inventory --graph [GROUP] [--vars]` prints,
// starting at group (all when empty): "@group:" lines, children first, then
// the group's own hosts, each level indented by "  |"; with withVars each
// host's merged variables and each group's variables as "{name = value}".
func (inv *Inventory) Graph(w io.Writer, group string, withVars bool) error {
	if group == "" {
		group = "all"
	}
	g := inv.groups[group]
	if g == nil {
		return fmt.Errorf("Pattern must be valid group name when using --graph")
	}
	var lines []string
	if err := inv.graphGroup(&lines, g, 0, withVars); err != nil {
		return err
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

func graphName(name string, depth int) string {
	if depth == 0 {
		return name
	}
	return strings.Repeat("  |", depth) + "--" + name
}

func graphVars(lines *[]string, vars map[string]any, depth int) {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		*lines = append(*lines, graphName("{"+k+" = "+pyfmt.Str(vars[k])+"}", depth))
	}
}

func (inv *Inventory) graphGroup(lines *[]string, g *Group, depth int, withVars bool) error {
	*lines = append(*lines, graphName("@"+g.Name+":", depth))
	depth++
	for _, c := range g.children {
		if err := inv.graphGroup(lines, c, depth, withVars); err != nil {
			return err
		}
	}
	if g.Name != "all" {
		for _, h := range g.hosts {
			*lines = append(*lines, graphName(h.Name, depth))
			if withVars {
				vars, err := inv.hostVars(h)
				if err != nil {
					return err
				}
				graphVars(lines, vars, depth+1)
			}
		}
	}
	if withVars {
		vars, err := inv.GroupVars(g.Name)
		if err != nil {
			return err
		}
		graphVars(lines, vars, depth)
	}
	return nil
}
