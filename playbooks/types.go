package playbooks

import "strconv"

// Playbook is a parsed playbook file: its plays in order, with every
// import_playbook, role, import and literal include resolved.
type Playbook struct {
	Path  string  // the file as given to Load
	Dir   string  // its directory: Ansible's playbook_dir
	Plays []*Play // in order, import_playbook expanded in place
	// Files are every YAML file read (the playbook, imported playbooks,
	// task files, role files), sorted, named as errors name them: what a
	// change detector must watch. Files that roles copy or template are
	// not included.
	Files []string
	// Warnings are problems Ansible finds only when the task runs (an
	// include_tasks whose literal file is missing or broken): the run
	// fails on the hosts that reach it; a caller shows them before.
	Warnings ErrorList
	// Notices are what Ansible warns about as it reads the files, which
	// load as they are (a key given twice in a mapping): a caller shows
	// them as warnings.
	Notices []string

	// plugins finds the content's Python plugin files (PluginFiles).
	plugins *pluginFinder
}

// Bool is a boolean keyword (become, ignore_errors, no_log, …). It is
// either unset (inherit from the enclosing level), a literal, or a
// template such as "{{ use_sudo }}" to evaluate at run time.
type Bool struct {
	Set   bool
	Value bool   // the literal, when Expr is empty
	Expr  string // a template string to evaluate at run time
	// Bad is a value written for a task's, block's or role's keyword that
	// no boolean reading accepts ("yes.", a list): Ansible loads it and
	// fails the task when it runs, and so does the engine.
	Bad any
}

// True reports whether the keyword is set to the literal true.
func (b Bool) True() bool { return b.Set && b.Expr == "" && b.Bad == nil && b.Value }

// Keywords are the keywords a play, role, block and task share. An unset
// (zero) field inherits from the enclosing level; the engine resolves
// that, walking Task.Parent, Task.Role and the play. Values that may be
// templates stay raw, as written.
type Keywords struct {
	Become       Bool
	BecomeUser   string
	BecomeMethod string
	BecomeFlags  string
	BecomeExe    string
	RemoteUser   string
	Connection   string
	Port         any
	// Environment is this level's environment: a map, or a template string
	// naming one. Ansible merges the levels, inner keys winning.
	Environment       any
	NoLog             Bool
	RunOnce           Bool
	IgnoreErrors      Bool
	IgnoreUnreachable Bool
	CheckMode         Bool
	Diff              Bool
	AnyErrorsFatal    Bool
	DelegateTo        string
	DelegateFacts     Bool
	Throttle          any
	Timeout           any
	ModuleDefaults    any
	Collections       []string
	Debugger          string
	// Vars are this level's vars, values raw (YAML 1.1 types, templates
	// unevaluated).
	Vars map[string]any
	// Tags are the tags written at this level (a comma list is split).
	Tags []string
	// When are the conditions written at this level; all must hold (AND).
	// A literal boolean is kept as "True" or "False". On a play, only an
	// import_playbook's when: sets it.
	When []string
	// Notify names handlers (by name or listen topic); blocks and tasks only.
	Notify []string
}

// Play is one play of a playbook.
type Play struct {
	Pos  Pos
	Name string
	// Hosts is the host pattern; a YAML list is joined with ",".
	Hosts string
	Keywords
	GatherFacts       Bool
	GatherSubset      any
	GatherTimeout     any
	FactPath          string
	VarsFiles         []any            // each a path, or a list of paths (the first found)
	VarsPrompt        []map[string]any // each with name and Ansible's other keys (varsPromptKeys)
	Serial            any              // a number, a percentage string, or a list of them
	MaxFailPercentage any
	Strategy          string
	Order             string
	ForceHandlers     Bool
	Roles             []*Role
	PreTasks          []*Task
	Tasks             []*Task
	PostTasks         []*Task
	Handlers          []*Task
}

// Kind tells what a Task is.
type Kind int

// The kinds of task.
const (
	// KindModule runs a module (meta included).
	KindModule Kind = iota
	// KindBlock groups Block, Rescue and Always.
	KindBlock
	// KindImportTasks is import_tasks, resolved at load time into Tasks.
	KindImportTasks
	// KindIncludeTasks is include_tasks or the legacy include: dynamic.
	// When its file is a literal path, Tasks holds the parsed file.
	KindIncludeTasks
	// KindImportRole is import_role, resolved at load time into Target.
	KindImportRole
	// KindIncludeRole is include_role: dynamic. When its name is literal,
	// Target holds the parsed role.
	KindIncludeRole
)

// String names the kind: "module", "block", or the loader's action that
// makes it (include_tasks, import_role, ...).
func (k Kind) String() string {
	switch k {
	case KindModule:
		return "module"
	case KindBlock:
		return "block"
	}
	for _, a := range ownActions {
		if a.kind == k && a.Name != oldInclude {
			return a.Name
		}
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Task is a task, handler, block, or include/import, in the order written.
type Task struct {
	Pos  Pos
	Kind Kind
	Name string
	Keywords
	// Module is the canonical module name ("copy" for ansible.builtin.copy);
	// for includes and imports it is "include_tasks", "import_role", …
	Module string
	// Action is the module name as written.
	Action string
	// Args are the module arguments, raw: k=v pairs as strings, dict values
	// with their YAML 1.1 types, a free-form command under "_raw_params",
	// and args: merged underneath.
	Args map[string]any
	// LocalAction is set for local_action: (DelegateTo is then "localhost").
	LocalAction bool
	// ModuleFile is the file of a module that ships with the content (a
	// library/ directory, the module path) or of an installed
	// collection's; empty for tender's own.
	ModuleFile string
	// CollectionRoots are, for a collection's module (ModuleFile), the
	// ansible_collections directories the run looks in, in order: where
	// the collections whose module_utils it imports are found.
	CollectionRoots []string
	// ActionPlugin is the file of an action plugin that ships with the
	// content (action_plugins/) or with a collection: Python for
	// Ansible's controller, which the engine refuses when the task runs.
	ActionPlugin string
	Loop         *Loop
	LoopControl  *LoopControl
	Register     string
	ChangedWhen  []string
	FailedWhen   []string
	Until        []string
	Retries      any
	Delay        any
	Async        any
	Poll         any
	// Listen are the topics a handler answers to besides its name.
	Listen []string

	// Block, Rescue and Always hold a block's tasks.
	Block, Rescue, Always []*Task
	// File is the resolved task file of an include or import ("" when the
	// path is a template known only at run time).
	File string
	// Tasks are the tasks of an imported file, or of an included file whose
	// path is literal.
	Tasks []*Task
	// Target is the role of an import_role or include_role.
	Target *Role

	// Parent is the block, import or include this task sits in (nil at the
	// top of a play's or role's list).
	Parent *Task
	// Role is the role this task belongs to (nil for play tasks).
	Role *Role
	// Handler is set for tasks of a handlers section.
	Handler bool
	// Apply is the block an include_tasks' apply: makes of its keywords:
	// the included tasks sit in it, so they inherit them (its Block is
	// empty; the engine does not run it).
	Apply *Task
	// EffectiveTags are the task's tags and every tag inherited from its
	// play, role, blocks and imports, sorted, without duplicates.
	EffectiveTags []string

	// late is set for an include whose target is a template (Dynamic).
	late *late
	// origin is the include a copy with its target loaded was made from
	// (Resolve, or Load's preview of a literal include); nil otherwise.
	origin *Task
}

// Original returns the task as the playbook holds it: for a copy of a
// dynamic include with its target loaded, the include it was made from;
// else t itself. The tasks an include loads have the copy as
// their parent; the enclosing block lists the original.
func (t *Task) Original() *Task {
	for t.origin != nil {
		t = t.origin
	}
	return t
}

// Loop is a task's loop: loop: or with_<lookup>:.
type Loop struct {
	Pos Pos
	// With is the lookup of a with_<lookup> loop ("items", "dict",
	// "fileglob", …); empty for loop:.
	With string
	// Items is the raw value: a list, a template string, or a dict.
	Items any
}

// LoopControl is a task's loop_control.
type LoopControl struct {
	LoopVar  string
	IndexVar string
	Label    any
	Pause    any
	Extended Bool
	// ExtendedAllItems is extended_allitems: whether ansible_loop has
	// allitems (true when unset).
	ExtendedAllItems Bool
}

// Role is one use of a role: by a play's roles:, a dependency in
// meta/main.yml, or an import_role/include_role task.
type Role struct {
	Pos  Pos    // where it is referenced
	Name string // as referenced; namespace.collection.name for a collection's
	Path string // its directory
	// Collection is the collection that holds the role
	// (namespace.collection), "" for a role found in a roles path.
	Collection string
	// Params are the role parameters given with the reference (keys that
	// are not keywords).
	Params map[string]any
	Keywords
	Defaults        map[string]any // defaults/main.yml
	RoleVars        map[string]any // vars/main.yml
	Tasks           []*Task        // tasks/main.yml (or tasks_from)
	Handlers        []*Task        // handlers/main.yml
	Dependencies    []*Role        // meta/main.yml dependencies, in order
	AllowDuplicates bool           // meta/main.yml allow_duplicates
	// Included: loaded by import_role or include_role, which Ansible
	// caches apart from the play's roles and dependencies.
	Included bool
	// Parent is the role that lists this one as a dependency.
	Parent *Role
	// from are the files the role was loaded from (tasks_from and the
	// others), which tell a role importing itself from another file
	// from a dependency loop.
	from roleFiles
}
