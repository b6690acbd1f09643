package playbooks

import (
	names "github.com/tender-sh/tender/internal/suggest"
	"github.com/tender-sh/tender/tasks"
)

// ownActions are the actions this package resolves itself (the include
// and import keywords) and those the engine runs without a module (see
// EngineActions): the loader knows them whatever the registry holds.
var ownActions = []tasks.Def{
	{Name: "include", RawParams: true}, {Name: "include_tasks", RawParams: true},
	{Name: "import_tasks", RawParams: true}, {Name: "include_role", RawParams: true},
	{Name: "import_role", RawParams: true},
	// the engine's
	{Name: "setup"}, {Name: "gather_facts"}, {Name: "meta", RawParams: true}, {Name: "async_status"},
	{Name: "wait_for_connection"}, {Name: "reboot"},
}

// EngineActions lists the actions the engine (provision) runs itself,
// with no module of the registry: fact gathering, meta, async_status,
// and the actions that log in again.
func EngineActions() []string {
	var out []string
	for _, d := range ownActions[5:] {
		out = append(out, d.Name)
	}
	return out
}

// moduleSet answers what a module name as a task writes it means: the
// registry's modules and this package's own actions.
type moduleSet struct {
	reg     *tasks.Registry
	own     map[string]tasks.Def
	names   []string
	content bool // modules that ship with the content are allowed (LibraryModule)
}

func newModuleSet(reg *tasks.Registry) *moduleSet {
	m := &moduleSet{reg: reg, own: map[string]tasks.Def{}}
	for _, d := range ownActions {
		m.own[d.Name] = d
	}
	for _, n := range reg.Names() {
		if n == LibraryModule {
			m.content = true
			continue
		}
		m.names = append(m.names, n)
	}
	for _, d := range ownActions {
		if _, dup := reg.Def(d.Name); !dup {
			m.names = append(m.names, d.Name)
		}
	}
	return m
}

// def returns the module name (as written) means.
func (m *moduleSet) def(name string) (tasks.Def, bool) {
	if d, ok := m.reg.Def(name); ok && d.Name != LibraryModule {
		return d, true
	}
	d, ok := m.own[tasks.ShortName(name)]
	return d, ok
}

// known reports whether name (as written) is a module, and its canonical name.
func (m *moduleSet) known(name string) (string, bool) {
	d, ok := m.def(name)
	return d.Name, ok
}

// canonical is name's canonical name, name itself (less an
// ansible.builtin. prefix) when no module has it.
func (m *moduleSet) canonical(name string) string {
	if d, ok := m.def(name); ok {
		return d.Name
	}
	return tasks.ShortName(name)
}

// freeForm reports whether the module name (as written) takes a
// free-form command line.
func (m *moduleSet) freeForm(name string) bool {
	d, _ := m.def(name)
	return d.FreeForm
}

// rawParams reports whether the module name (as written) takes words
// besides k=v pairs.
func (m *moduleSet) rawParams(name string) bool {
	d, _ := m.def(name)
	return d.RawParams
}

// suggest returns the known name nearest to name ("" when nothing is close).
func suggest(name string, candidates []string) string {
	name = tasks.ShortName(name)
	best, bestD := "", -1
	for _, c := range candidates {
		d := names.Distance(name, c)
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	// Close enough to be a typo: at most a third of the word, at least 1.
	limit := max(1, (len(name)+2)/3)
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// didYouMean formats a suggestion for an error message.
func didYouMean(name string, candidates []string) string {
	if s := suggest(name, candidates); s != "" {
		return ` (did you mean "` + s + `"?)`
	}
	return ""
}
