//go:build windows

package osproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Executable reports whether Windows would run path: a file whose
// extension is one of PATHEXT's.
func Executable(path string) bool {
	ext := strings.ToUpper(filepath.Ext(path))
	if ext == "" {
		return false
	}
	exts := os.Getenv("PATHEXT")
	if exts == "" {
		exts = ".COM;.EXE;.BAT;.CMD"
	}
	for _, e := range strings.Split(strings.ToUpper(exts), ";") {
		if e == ext {
			return true
		}
	}
	return false
}

// Owner is not known on Windows (files have security descriptors, not
// uids).
func Owner(os.FileInfo) (string, bool) { return "", false }

// Identity is not known from a Windows FileInfo; os.SameFile compares
// files there.
func Identity(os.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }

// Group, on Windows, which has no process groups to signal, leaves Kill
// and cancellation (with cancel) to kill the process itself.
func Group(cmd *exec.Cmd, cancel bool) {
	if cancel {
		cmd.Cancel = func() error { return Kill(cmd) }
	}
}

// Kill kills cmd's process.
func Kill(cmd *exec.Cmd) error { return cmd.Process.Kill() }
