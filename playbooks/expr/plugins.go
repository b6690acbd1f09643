package expr

import (
	"fmt"
	"sort"
	"strings"
)

// The registry of tender's filters, tests, lookups, global functions and
// statements, against what ansible-core 2.14 and Jinja2 3.1 ship
// (upstreamPlugins), and docs/PLUGINS.md made from both.

// upstreamPlugin is one plugin Ansible or Jinja ships, and tender's answer.
type upstreamPlugin struct {
	kind    string // filter, test, lookup, global, statement
	name    string
	origin  string // ansible.builtin, jinja2, …
	refused string // why tender refuses it; empty when implemented
	note    string // how tender's differs, when it does
}

// pluginKinds are the kinds of plugin, in the order the document lists them.
var pluginKinds = []string{"filter", "test", "lookup", "global", "statement"}

// higherOrderFilters are the filters the evaluator runs itself (they call
// filters and tests by name).
var higherOrderFilters = []string{"map", "reject", "rejectattr", "select", "selectattr"}

// statementNames are the template statements tender implements.
var statementNames = []string{"call", "filter", "for", "from", "if", "import", "include", "macro", "print", "raw", "set", "with"}

// isFilter reports whether tender implements the filter called name.
func isFilter(name string) bool {
	_, ok := filterOf(name)
	return ok || contains(higherOrderFilters, name)
}

// implementedPlugins lists, sorted, the plugins of a kind tender's own
// tables implement.
func implementedPlugins(kind string) []string {
	var names []string
	switch kind {
	case "filter":
		for k := range filters {
			names = append(names, k)
		}
		names = append(names, higherOrderFilters...)
	case "test":
		for k := range testTable() {
			names = append(names, k)
		}
	case "lookup":
		for k := range lookupTable() {
			names = append(names, k)
		}
	case "global":
		for k := range globalTable() {
			names = append(names, k)
		}
	case "statement":
		names = append(names, statementNames...)
	}
	sort.Strings(names)
	return names
}

// refusedReason is why tender refuses the plugin of a kind called name,
// or "" when it does not (it implements it, or nobody ships it).
func refusedReason(kind, name string) string {
	for _, p := range upstreamPlugins {
		if p.kind == kind && p.name == name {
			return p.refused
		}
	}
	return ""
}

// pluginsMarkdown is docs/PLUGINS.md.
func pluginsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Plugins\n\n")
	b.WriteString("Every filter, test and lookup that ansible-core 2.14 ships as `ansible.builtin`, the global\n")
	b.WriteString("functions its templates have, and every filter, test, global and statement Jinja2 3.1 has\n")
	b.WriteString("built in, with what tender does with each: implemented (behaving as in Ansible, recorded\n")
	b.WriteString("against ansible-core by `playbooks/expr/testdata/gen.py`), or refused with an error that\n")
	b.WriteString("says why. Generated from `playbooks/expr` (its tables and `plugins_list.go`);\n")
	b.WriteString("`go test ./playbooks/expr -run TestPluginsDocCurrent -update` rewrites it, and the test\n")
	b.WriteString("fails when it is out of date. Deliberate differences are in `playbooks/expr/DIFFERENCES.md`.\n")
	b.WriteString("\nA filter, test or lookup that is not here runs from the content's Python plugins, as in Ansible:\n")
	b.WriteString("`filter_plugins/`, `test_plugins/` and `lookup_plugins/` beside the playbook and in its roles, and\n")
	b.WriteString("installed collections' `plugins/filter`, `plugins/test` and `plugins/lookup` by their fully qualified\n")
	b.WriteString("names (a short name ansible-core routes to a collection, such as `json_query`, too), in one Python\n")
	b.WriteString("process on the controller per run (`playbooks/pyplugins`; each call bounded in time, the process in\n")
	b.WriteString("memory; refused by a sandbox without `local: true`). Lookups need ansible-core on the controller\n")
	b.WriteString("(their LookupBase); they get the task's variables but `hostvars` and `vars`.\n")
	titles := map[string]string{"filter": "Filters", "test": "Tests", "lookup": "Lookups", "global": "Global functions", "statement": "Statements"}
	for _, kind := range pluginKinds {
		var rows []upstreamPlugin
		done, refused := 0, 0
		for _, p := range upstreamPlugins {
			if p.kind == kind {
				rows = append(rows, p)
				if p.refused == "" {
					done++
				} else {
					refused++
				}
			}
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
		fmt.Fprintf(&b, "\n## %s\n\n%d implemented, %d refused.\n\n", titles[kind], done, refused)
		b.WriteString("| name | from | tender | notes |\n|---|---|---|---|\n")
		for _, p := range rows {
			status, note := "implemented", p.note
			if p.refused != "" {
				status, note = "refused", p.refused
			}
			name := p.name
			if kind == "statement" {
				name = "{% " + name + " %}"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", strings.ReplaceAll(name, "|", "\\|"), p.origin, status, strings.ReplaceAll(note, "|", "\\|"))
		}
	}
	return b.String()
}
