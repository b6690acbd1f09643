//go:build !windows

package main

import (
	"os"
	"syscall"
	"time"
)

// usage is a finished process's peak resident memory (getrusage's
// ru_maxrss: KiB on Linux) and the processor time it used.
func usage(ps *os.ProcessState) (int64, time.Duration) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0
	}
	return ru.Maxrss, time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
}
