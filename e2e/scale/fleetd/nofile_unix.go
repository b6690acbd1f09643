//go:build !windows

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// raiseNoFile raises RLIMIT_NOFILE's soft limit to the hard one, and, when
// that is short of what hosts need, the hard one too (root only, up to
// fs.nr_open). Each host holds a listener; each connected host its
// connection and the three pipes of its shell: 5 descriptors at most.
func raiseNoFile(hosts uint64) (string, error) {
	need := 5*hosts + 64
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return "", err
	}
	if l.Max < need {
		want := l
		want.Max = need
		if b, err := os.ReadFile("/proc/sys/fs/nr_open"); err == nil {
			if n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && n < want.Max {
				want.Max = n
			}
		}
		want.Cur = want.Max
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &want) == nil {
			l = want
		}
	}
	l.Cur = l.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return "", err
	}
	if l.Cur < need {
		return fmt.Sprintf("open files limited to %d; %d hosts, all connected at once, need %d (raise the hard limit: ulimit -Hn, as root)", l.Cur, hosts, need), nil
	}
	return "", nil
}
