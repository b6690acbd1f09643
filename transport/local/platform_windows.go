//go:build windows

package local

import "errors"

// platformOK refuses the local connection on Windows: its tasks are
// POSIX shell scripts, which a Windows controller has no /bin/sh to run.
func platformOK() error {
	return errors.New("the local connection (delegate_to: localhost, connection: local) runs tasks in /bin/sh, which a Windows controller does not have; run tender from WSL or a Unix host for local tasks")
}
