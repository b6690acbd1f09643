//go:build windows

package ssh

import "os"

// alive reports whether pid runs (Windows has no zombies to tell apart).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
