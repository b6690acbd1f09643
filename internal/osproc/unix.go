//go:build !windows

package osproc

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// Executable reports whether this process may run path (access(2)'s
// X_OK).
func Executable(path string) bool { return syscall.Access(path, 1) == nil }

// Owner returns the uid that owns the file fi describes.
func Owner(fi os.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return strconv.FormatUint(uint64(st.Uid), 10), true
}

// Identity returns the device and inode of the file fi describes.
func Identity(fi os.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), st.Ino, true
}

// Group makes cmd start in a process group of its own, which Kill kills
// whole (the shell and what it started); with cancel (cmd made by
// exec.CommandContext) its context's end kills the group too.
func Group(cmd *exec.Cmd, cancel bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if cancel {
		cmd.Cancel = func() error { return Kill(cmd) }
	}
}

// Kill kills the process group of cmd, started with Group.
func Kill(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
