package shared

import (
	"context"
	"io"
	"regexp"
	"sync"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// Module scripts in two parts (transport.Cmd.Lib): the constant
// definitions a script needs (helper functions, and the module's own
// body made a function: MainFunc) and the few lines that set the
// task's values and call it. A transport that keeps a shell across Runs
// defines each piece once per shell, so a task sends and the host parses
// a few hundred bytes instead of the whole module, and the controller
// holds no copy of the module's text per host in flight.
//
// The pieces live for the whole connection, visible to every later
// script on it: no two pieces may define the same name (checked by
// LibPieces' test over every registered piece), and a piece defines
// only: it prints nothing, reads nothing, and changes nothing.

// StdLib is the pieces most module scripts begin with: ShFuncs and
// AttrFuncs.
var StdLib []string

func init() { StdLib = RegisterLib(ShFuncs, AttrFuncs) }

// libRegistry is every piece registered with RegisterLib or MainFunc.
var libRegistry struct {
	mu     sync.Mutex
	pieces []LibPiece
	known  map[string]bool // the pieces' texts
}

// addLib records p; the caller holds libRegistry.mu.
func addLib(p LibPiece) {
	libRegistry.pieces = append(libRegistry.pieces, p)
	if libRegistry.known == nil {
		libRegistry.known = map[string]bool{}
	}
	libRegistry.known[p.Text] = true
}

// Registered reports whether piece was registered (RegisterLib,
// MainFunc): only those are checked for what a piece may do, so the
// module tests' connection refuses a Cmd with any other.
func Registered(piece string) bool {
	libRegistry.mu.Lock()
	defer libRegistry.mu.Unlock()
	return libRegistry.known[piece]
}

// LibPiece is one registered Lib piece and the function names it
// defines at its top level.
type LibPiece struct {
	Text  string
	Names []string
}

// topFunc matches a function definition at the start of a line.
var topFunc = regexp.MustCompile(`(?m)^([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(\)`)

// RegisterLib records pieces as Lib pieces (for LibPieces) and returns
// them, for a package-level list.
func RegisterLib(pieces ...string) []string {
	libRegistry.mu.Lock()
	defer libRegistry.mu.Unlock()
	for _, p := range pieces {
		var names []string
		for _, m := range topFunc.FindAllStringSubmatch(p, -1) {
			names = append(names, m[1])
		}
		addLib(LibPiece{Text: p, Names: names})
	}
	return pieces
}

// MainFunc makes a module's script body a Lib piece: the function name,
// whose body it is, registered. The body runs as it did at a script's
// top (its exit ends the script; it has no arguments), once the script
// calls name after setting the body's variables.
func MainFunc(name, body string) string {
	if len(body) == 0 || body[len(body)-1] != '\n' {
		body += "\n"
	}
	p := name + "() {\n" + body + "}\n"
	libRegistry.mu.Lock()
	defer libRegistry.mu.Unlock()
	addLib(LibPiece{Text: p, Names: []string{name}})
	return p
}

// LibPieces returns every registered piece.
func LibPieces() []LibPiece {
	libRegistry.mu.Lock()
	defer libRegistry.mu.Unlock()
	return append([]LibPiece(nil), libRegistry.pieces...)
}

// Lib is a module script: its Lib pieces and the lines that use them.
type Lib struct {
	Pieces []string
	Script string
	// Stat is the path whose attributes the script reads first, with
	// _t_stat, before it changes anything, for a script that prints
	// "changed=" (Unchanged) when it changed nothing: see
	// transport.Cmd.Stat. Empty: none.
	Stat string
	// Passwd is the user whose passwd entry the script reads first,
	// before it changes anything: see transport.Cmd.Passwd. Empty: none.
	Passwd string
	// Group is the group whose entry the script reads first: see
	// transport.Cmd.Group. Empty: none.
	Group string
	// Unchanged is the line the script prints when it changed nothing,
	// with Stat, Passwd or Group; empty: the Unchanged constant.
	Unchanged string
}

// Unchanged is the verdict line of a module script that changed nothing
// (transport.Cmd.Unchanged), unless its Lib says another.
const Unchanged = "changed="

// Cmd is l as a command with stdin (nil for none).
func (l Lib) Cmd(stdin io.Reader) transport.Cmd {
	return transport.Cmd{Lib: l.Pieces, Script: l.Script, Stdin: stdin}
}

// Final is l as RunFinal runs a script (see FinalCmd).
func (l Lib) Final(stdin io.Reader) transport.Cmd {
	cmd := FinalCmd(l.Script, stdin)
	cmd.Lib = l.Pieces
	if l.Stat != "" || l.Passwd != "" || l.Group != "" {
		cmd.Stat, cmd.Passwd, cmd.Group, cmd.Unchanged = l.Stat, l.Passwd, l.Group, l.Unchanged
		if cmd.Unchanged == "" {
			cmd.Unchanged = Unchanged
		}
	}
	return cmd
}

// RunLib runs l on the host as Run runs a script.
func RunLib(ctx context.Context, env *tasks.Env, l Lib, stdin io.Reader) (transport.Result, error) {
	return env.Conn.Run(ctx, l.Cmd(stdin))
}

// RunSplitLib runs l as RunSplit runs a script.
func RunSplitLib(ctx context.Context, env *tasks.Env, l Lib, stdin io.Reader) (transport.Result, error) {
	cmd := l.Cmd(stdin)
	cmd.LinesUntil = OutputMark
	return env.Conn.Run(ctx, cmd)
}

// RunFinalLib runs l as RunFinal runs a script.
func RunFinalLib(ctx context.Context, env *tasks.Env, l Lib, stdin io.Reader) (transport.Result, error) {
	return env.Conn.Run(ctx, l.Final(stdin))
}

// RunVerdictLib runs l as RunVerdict runs a script.
func RunVerdictLib(ctx context.Context, env *tasks.Env, l Lib, stdin io.Reader) (transport.Result, error) {
	cmd := l.Final(stdin)
	cmd.Lines = true
	cmd.Direct = true
	return env.Conn.Run(ctx, cmd)
}
