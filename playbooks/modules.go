package playbooks

import (
	"github.com/tender-sh/tender/internal/argsyntax"
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
	// the modules, and how a task writes its arguments.
	ModuleArgs(name string) (ArgSyntax, bool)
}

// ArgSyntax is how a task writes a module's arguments (tasks.ArgSyntax
// is the same type).
type ArgSyntax = argsyntax.Syntax

// loaderAction is an action this package carries out itself: an include
// or import keyword of tasks.
type loaderAction struct {
	ArgSyntax
	// kind is the Task kind it makes (the old include's is decided by
	// its form: see decodeArgs).
	kind Kind
	// options are the arguments it takes besides its file; nil takes any
	// (the old include's k=v are variables of the included tasks).
	options map[string]bool
}

// ownActions are the actions this package resolves itself, the include
// and import keywords: the loader knows them whatever the registry holds.
var ownActions = []loaderAction{
	{ArgSyntax{Name: oldInclude, RawParams: true}, KindIncludeTasks, nil},
	{ArgSyntax{Name: "include_tasks", RawParams: true}, KindIncludeTasks, set(nil, "file", "_raw_params", "apply")},
	{ArgSyntax{Name: "import_tasks", RawParams: true}, KindImportTasks, set(nil, "file", "_raw_params")},
	{ArgSyntax{Name: "include_role", RawParams: true}, KindIncludeRole, set(roleOptions, "apply")},
	{ArgSyntax{Name: "import_role", RawParams: true}, KindImportRole, set(roleOptions)},
}

// roleOptions are the arguments import_role and include_role take.
var roleOptions = []string{"name", "tasks_from", "vars_from", "defaults_from", "handlers_from", "allow_duplicates",
	"rolespec_validate", "public"}

// ownAction returns the loader's action of that canonical name.
func ownAction(name string) (loaderAction, bool) {
	for _, a := range ownActions {
		if a.Name == name {
			return a, true
		}
	}
	return loaderAction{}, false
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
		if a.Name != oldInclude {
			out = append(out, a.Name)
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
	own     map[string]ArgSyntax // ownActions by name
	names   []string
	content bool // modules that ship with the content are allowed (LibraryModule)
}

func newModuleSet(reg Modules) *moduleSet {
	m := &moduleSet{reg: reg, own: map[string]ArgSyntax{}}
	for _, d := range ownActions {
		m.own[d.Name] = d.ArgSyntax
	}
	for _, n := range reg.ActionNames() {
		if n == LibraryModule {
			m.content = true
			continue
		}
		m.names = append(m.names, n)
	}
	for _, d := range ownActions {
		if _, dup := reg.ModuleArgs(d.Name); !dup {
			m.names = append(m.names, d.Name)
		}
	}
	return m
}

// def returns the module name (as written) means.
func (m *moduleSet) def(name string) (ArgSyntax, bool) {
	if a, ok := m.reg.ModuleArgs(name); ok && a.Name != LibraryModule {
		return a, true
	}
	d, ok := m.own[fqcn.Short(name)]
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
	return fqcn.Short(name)
}

// freeForm reports whether the module name (as written) takes a
// free-form command line.
func (m *moduleSet) freeForm(name string) bool {
	d, _ := m.def(name)
	return d.FreeForm
}

// cmdParam reports whether a cmd argument of the module name (as written)
// is its command line's old name.
func (m *moduleSet) cmdParam(name string) bool {
	d, _ := m.def(name)
	return d.CmdParam
}

// conditions names the argument the module name (as written) evaluates as
// conditions itself ("" for none).
func (m *moduleSet) conditions(name string) string {
	d, _ := m.def(name)
	return d.Conditions
}

// words are what the free-form argument of the module name (as written)
// may be, nil for any.
func (m *moduleSet) words(name string) []string {
	d, _ := m.def(name)
	return d.Words
}

// rawParams reports whether the module name (as written) takes words
// besides k=v pairs.
func (m *moduleSet) rawParams(name string) bool {
	d, _ := m.def(name)
	return d.RawParams
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
