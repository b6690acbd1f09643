// Package argsyntax is how a task writes a module's arguments: what the
// playbook loader asks of a module registry, in the one type the registry
// (tasks.ArgSyntax) and the loader (playbooks.ArgSyntax) both name.
package argsyntax

// Syntax is how a task writes one module's arguments.
type Syntax struct {
	// Name is the module's canonical name.
	Name string
	// FreeForm: the arguments are a command line, of which only
	// Ansible's own k=v words are split off (shell, command, ...).
	FreeForm bool
	// RawParams: words that are not k=v pairs are the module's
	// _raw_params.
	RawParams bool
	// CmdParam: a cmd argument is the command line's old name (command,
	// shell, script).
	CmdParam bool
	// Conditions names the argument the module evaluates as conditions
	// itself (assert's that), which the loader checks as expressions.
	Conditions string
	// Words, when set, are what its free-form argument may be (meta's
	// actions), checked when the playbook loads; such an action steers
	// the play, so a templated module name cannot become it.
	Words []string
}
