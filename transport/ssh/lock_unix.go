//go:build unix

package ssh

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, so that tender processes
// appending to the same known_hosts file take turns.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
