package playbooks

import (
	"github.com/tender-sh/tender/internal/fqcn"
	names "github.com/tender-sh/tender/internal/suggest"
)

// Modules is what the loader needs to know of the modules a run can run
// (a *tasks.Registry is one): which names mean a module, and how a task
// writes its arguments.
type Modules interface {
	// ActionNames lists the canonical names a task may use as its
	// action: the modules' and those of the engine's own actions.
	ActionNames() []string
	// ModuleArgs reports whether name (as a task writes it) is one of
	// the modules, with its canonical name, whether its arguments are a
	// command line of which only Ansible's own k=v words are split off
	// (freeForm: shell, command, ...), whether words that are not k=v
	// pairs are its _raw_params (rawParams), and whether a cmd argument
	// is the command line's old name (cmdParam: command, shell, script).
	ModuleArgs(name string) (canonical string, freeForm, rawParams, cmdParam, ok bool)
}

// action is what the loader knows of an action: its canonical name and
// how a task writes its arguments (Modules.ModuleArgs).
type action struct {
	name                          string
	freeForm, rawParams, cmdParam bool
}

// ownActions are the actions this package resolves itself, the include
// and import keywords: the loader knows them whatever the registry holds.
var ownActions = []action{
	{name: oldInclude, rawParams: true}, {name: "include_tasks", rawParams: true},
	{name: "import_tasks", rawParams: true}, {name: "include_role", rawParams: true},
	{name: "import_role", rawParams: true},
}

// oldInclude is the action include_tasks and import_tasks replace, which
// also imports a playbook at play level; importPlaybook imports one.
const (
	oldInclude     = "include"
	importPlaybook = "import_playbook"
)

// LoaderActions lists the actions the loader carries out itself, which
// no registry holds: the include and import keywords of tasks, and
// import_playbook (the old include left out).
func LoaderActions() []string {
	var out []string
	for _, a := range ownActions {
		if a.name != oldInclude {
			out = append(out, a.name)
		}
	}
	return append(out, importPlaybook)
}

// OldInclude reports whether t is the old include action: static or
// dynamic as Ansible 2.14 decides, its k=v arguments variables of the
// included tasks.
func (t *Task) OldInclude() bool { return t.Module == oldInclude }

// moduleSet answers what a module name as a task writes it means: the
// registry's modules and this package's own actions.
type moduleSet struct {
	reg     Modules
	own     map[string]action
	names   []string
	content bool // modules that ship with the content are allowed (LibraryModule)
}

func newModuleSet(reg Modules) *moduleSet {
	m := &moduleSet{reg: reg, own: map[string]action{}}
	for _, d := range ownActions {
		m.own[d.name] = d
	}
	for _, n := range reg.ActionNames() {
		if n == LibraryModule {
			m.content = true
			continue
		}
		m.names = append(m.names, n)
	}
	for _, d := range ownActions {
		if _, _, _, _, dup := reg.ModuleArgs(d.name); !dup {
			m.names = append(m.names, d.name)
		}
	}
	return m
}

// def returns the module name (as written) means.
func (m *moduleSet) def(name string) (action, bool) {
	if c, ff, rp, cp, ok := m.reg.ModuleArgs(name); ok && c != LibraryModule {
		return action{name: c, freeForm: ff, rawParams: rp, cmdParam: cp}, true
	}
	d, ok := m.own[fqcn.Short(name)]
	return d, ok
}

// known reports whether name (as written) is a module, and its canonical name.
func (m *moduleSet) known(name string) (string, bool) {
	d, ok := m.def(name)
	return d.name, ok
}

// canonical is name's canonical name, name itself (less an
// ansible.builtin. prefix) when no module has it.
func (m *moduleSet) canonical(name string) string {
	if d, ok := m.def(name); ok {
		return d.name
	}
	return fqcn.Short(name)
}

// freeForm reports whether the module name (as written) takes a
// free-form command line.
func (m *moduleSet) freeForm(name string) bool {
	d, _ := m.def(name)
	return d.freeForm
}

// cmdParam reports whether a cmd argument of the module name (as written)
// is its command line's old name.
func (m *moduleSet) cmdParam(name string) bool {
	d, _ := m.def(name)
	return d.cmdParam
}

// rawParams reports whether the module name (as written) takes words
// besides k=v pairs.
func (m *moduleSet) rawParams(name string) bool {
	d, _ := m.def(name)
	return d.rawParams
}

// suggest returns the known name nearest to name ("" when nothing is close).
func suggest(name string, candidates []string) string {
	name = fqcn.Short(name)
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
