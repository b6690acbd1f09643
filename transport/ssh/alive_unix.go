//go:build unix

package ssh

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with that id runs on this
// machine (signal 0 checks without sending; EPERM means it runs as
// someone else).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
