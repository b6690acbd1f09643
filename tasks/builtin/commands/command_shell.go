package commands

import (
	_ "embed"
	"path"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// posixShells are the executables the shell module hands its text
// through a file descriptor: shells that take -c and POSIX here-documents
// and eval.
var posixShells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true,
	"mksh": true, "zsh": true}

// commandRunText runs the program after the gate (command_run.sh).
//
//go:embed command_run.sh
var commandRunText string

// shellRun is the part of a shell task's script that runs text with sh (as
// Ansible does, `sh -c TEXT`, $0 being sh), without the text ever being
// an argument that ps shows to the host's other users: command_run.sh
// hands it over on a file descriptor. An executable that is not a POSIX
// shell gets the text with -c, as Ansible gives it.
func shellRun(sh, text string) string {
	how := "posix"
	if !posixShells[path.Base(sh)] {
		how = "other"
	}
	return shared.ShAssign([][2]string{{"_t_how", how}, {"_t_sh", sh}, {"_t_text", text}}) + commandRunText
}

// argvRun is the part of a command task's script that runs words (shell
// words, expanded as ExpandWord expands them) as a program and its
// arguments.
func argvRun(words []string) string {
	return shared.ShAssign([][2]string{{"_t_how", "argv"}}) + shared.SetWords(words) + commandRunText
}
