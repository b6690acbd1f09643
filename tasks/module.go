// Package tasks is the module contract: what a module is (Module), what it
// is given (Env, Args) and what it returns (Result), the Registry that maps
// module names to modules, and helpers modules share to read their
// arguments strictly. Modules never import the engine (provision): the
// engine calls them through this contract.
package tasks

import (
	"context"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/transport"
)

// Module is one module (copy, file, shell, ...). Run does check-and-apply in
// as few round trips as it can (one, for most): it tests the host's state,
// changes only what differs, and says whether it changed anything.
//
// A module that found the host in a state it cannot fix, or whose command
// failed, returns a Result with Failed set and a Msg; an error return means
// the module could not run at all (bad arguments, the transport broke).
// Errors that wrap transport.ErrUnreachable make the host unreachable.
// In check mode (Env.Check) a module changes nothing and reports what it
// would have changed. Run must be safe for concurrent use on different
// hosts.
type Module interface {
	Run(ctx context.Context, env *Env, args Args) (Result, error)
}

// Env is what the engine gives a module for one task on one host.
type Env struct {
	// Host is the inventory hostname.
	Host string
	// Conn reaches the host. Become, when the task asks for it, is already
	// applied: scripts run and files are written as the become user.
	Conn transport.Conn
	// Become is set when the task runs through become (Conn applies it),
	// as Ansible's connection.become: a module whose action reads the
	// host differently under become (fetch) asks it.
	Become bool
	// Check is check mode (--check or check_mode: true): change nothing.
	Check bool
	// Diff asks for a diff of what changed (--diff or diff: true).
	Diff bool
	// Verbosity is the run's -v count (0 without -v): debug's verbosity:
	// skips a message above it.
	Verbosity int
	// Eval evaluates a Jinja2 expression (no braces) that the module
	// itself wrote, in the task's scope: a variable such as
	// ansible_pkg_mgr, or a constant expression. It is not for text from
	// an argument (that goes to Condition or Template, which honour its
	// mark): text equal to a marked string of the task's arguments is
	// refused.
	Eval func(expr string) (any, error)
	// Condition evaluates cond as when: does (assert's that:): a string is
	// rendered when it holds template markup, then evaluated as an
	// expression; another value is taken for its truth. A marked value,
	// or one whose rendering is marked, is refused with Ansible's
	// "Conditional is marked as unsafe, and cannot be evaluated."; so is a
	// plain string equal to a marked string of the task's arguments.
	Condition func(cond any) (bool, error)
	// Template renders v in the task's scope as Ansible renders a task's
	// argument (debug's var=): a number, boolean or None from a single
	// bare name passes through, other output is text read back as a
	// Python literal where it is one; lists and dicts are rendered
	// through. A marked value is returned as it is, never rendered; so is
	// a plain string equal to a marked string of the task's arguments.
	Template func(v any) (any, error)
	// Render renders a template's text in the task's scope (the template
	// module's files, which come from the controller; text equal to a
	// marked string of the task's arguments comes back as it is).
	Render func(text string) (string, error)
	// RenderFile renders the text of the template file f (on the
	// controller): its {% include %}s look beside it first. Nil means
	// Render.
	RenderFile func(text string, f TemplateFile) (string, error)
	// FindFile resolves a controller-side file the way Ansible searches:
	// kind is "files" or "templates"; a relative name is looked up in the
	// role's kind directory, the role, the play's kind directory and the
	// playbook directory, in that order. It returns an absolute path.
	FindFile func(kind, name string) (string, error)
	// Sandbox is the run's controller policy: a module asks it before it
	// reads (CheckRead) or writes (CheckWrite) a controller file, and
	// fails with its error. Nil allows everything.
	Sandbox *sandbox.Policy
	// Decrypt opens Ansible Vault data: include_vars' vaulted files,
	// copy's and template's vaulted sources. Nil means no vault secret
	// was given: vaulted data is refused.
	Decrypt func(vaulttext []byte) ([]byte, error)
	// DuplicateKeys is what a key given twice in a mapping of a YAML
	// file a module reads (include_vars) does: Ansible's
	// DUPLICATE_YAML_DICT_KEY, by default a warning.
	DuplicateKeys yaml11.DuplicatePolicy
	// Jinja2Native is the run's jinja2_native setting: the task's
	// arguments were rendered as native values, and set_fact leaves
	// "yes", "no", "true" and "false" strings as they are.
	Jinja2Native bool
	// Warn prints a warning about what the module read (a duplicate
	// key) at once, once in a run, as Ansible's display does. Nil says
	// nothing.
	Warn func(msg string)
	// Modules is the run's registry: a module that hands a task to
	// another (package to apt or dnf) looks it up here, so that an
	// embedding program's allow-list (Registry.Restrict) holds for the
	// module handed to as well.
	Modules *Registry
	// Output, when set, takes each line a command the module runs
	// writes to stdout or (stderr true) to stderr, as it is written
	// (live output, Runner.LiveOutput in provision), for a module that
	// runs the user's command (command, shell); nil when the run does
	// not ask for it or the task is no_log. It may be called from two
	// goroutines at once, one per stream. The module's result is the
	// same either way.
	Output func(line string, stderr bool)
	// Action is the module's name as the task wrote it.
	Action string
	// Async is set when the task runs in the background (async:): a
	// module that follows Ansible's module protocol then reports its
	// stderr as Ansible's async wrapper does.
	Async bool
	// ModuleFile is, for a module that ships with the content (a library/
	// directory, the module path), its file on the controller: the module
	// registered as "library" runs it on the host.
	ModuleFile string
	// CollectionRoots are, for a collection's module, the
	// ansible_collections directories where the collections it imports
	// from are found, in order.
	CollectionRoots []string
}

// Args are a task's module arguments after templating: k=v pairs and dict
// args merged, values with their types, omitted ones removed. A free-form
// command is under "_raw_params".
type Args map[string]any

// Result is what a module did. Changed, Failed and Skipped decide the
// line the engine prints; Data is what register: stores, shaped like
// Ansible's (rc, stdout, stdout_lines, stat.exists, ...). The engine adds
// changed, failed, skipped and msg to Data itself.
type Result struct {
	Changed bool
	Failed  bool
	Skipped bool
	Msg     string
	RC      int
	Stdout  string
	Stderr  string
	// Diff is a unified diff of what changed, when Env.Diff asked for one.
	Diff string
	// Warnings are printed as [WARNING] lines, as Ansible does.
	Warnings []string
	// Show asks the engine to print the result even without -v (debug's
	// and assert's, as Ansible's _ansible_verbose_always).
	Show bool
	Data map[string]any
}
