//go:build !unix

package ssh

import "os"

// lockFile is a no-op where advisory file locks are not available; the
// Dialer's own mutex still serializes appends within one process.
func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) {}
