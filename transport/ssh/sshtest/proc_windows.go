//go:build windows

package sshtest

import (
	"os"
	"os/exec"
	"syscall"
)

// signals are the signals a session's "signal" request may name, by
// their SSH names: those Windows' syscall package knows.
var signals = map[string]syscall.Signal{
	"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "KILL": syscall.SIGKILL,
	"TERM": syscall.SIGTERM, "QUIT": syscall.SIGQUIT,
}

// ownGroup does nothing: Windows has no process groups to kill as one.
func ownGroup(*exec.Cmd) {}

// killGroup kills the process pid (its children live on).
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
