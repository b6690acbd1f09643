//go:build !windows

package sshtest

import (
	"os/exec"
	"syscall"
)

// signals are the signals a session's "signal" request may name, by
// their SSH names.
var signals = map[string]syscall.Signal{
	"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "KILL": syscall.SIGKILL,
	"TERM": syscall.SIGTERM, "QUIT": syscall.SIGQUIT, "USR1": syscall.SIGUSR1,
}

// ownGroup makes cmd the leader of a process group of its own, so that
// killGroup ends it with its children.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the process group pgid leads.
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
