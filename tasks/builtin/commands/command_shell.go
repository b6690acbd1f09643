package commands

import (
	"crypto/rand"
	"encoding/hex"
	"path"
	"strings"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// posixShells are the executables shellExec hands a script through a file
// descriptor: shells that take -c and POSIX here-documents and eval.
var posixShells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true,
	"mksh": true, "zsh": true}

// shellExec is the line that runs the shell module's text with sh (as
// Ansible does, `sh -c TEXT`, $0 being sh), without the text ever being
// an argument that ps shows to the host's other users: the text travels
// in a here-document on file descriptor 3, which the shell reads and
// evals; the here-document is part of tender's script, which itself
// reaches the host on stdin. The text closes descriptor 3 before it runs,
// so nothing it starts inherits it. An executable that is not a POSIX
// shell gets the text with -c, as Ansible gives it.
func shellExec(sh, text string) string {
	if !posixShells[path.Base(sh)] {
		return "exec " + shared.Q(sh) + " -c " + shared.Q(text)
	}
	b := heredocBoundary(text)
	return "exec " + shared.Q(sh) + ` -c 'eval "$(cat <&3)"' ` + shared.Q(sh) + " 3<<'" + b + "'\nexec 3<&-\n" + text + "\n" + b
}

// heredocBoundary returns a here-document delimiter that is no line of
// text.
func heredocBoundary(text string) string {
	for {
		var r [8]byte
		_, _ = rand.Read(r[:])
		b := "__tender_" + hex.EncodeToString(r[:])
		if !strings.Contains(text, b) {
			return b
		}
	}
}
