package agents

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// processNonce tells this run of tender from an earlier one that had the
// same pid: in a container, every run is often pid 1.
var processNonce = sync.OnceValue(func() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
})

// owners numbers the owners this process made, so that two Deployers of
// one process never share a lease.
var owners atomic.Int64

// Owner names a new owner in this process for leases and rollouts:
// "tender@HOSTNAME:PID:NONCE.N". NONCE is set once per process and tells
// two runs apart when a pid is reused; N tells this process's owners
// apart.
func Owner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("tender@%s:%d:%s.%d", host, os.Getpid(), processNonce(), owners.Add(1))
}

// Gone reports whether the owner named by o (as Owner makes them) is a
// process of this machine that no longer runs: a controller that was
// killed. An owner with this process's pid but another nonce was an
// earlier run (a container's pid 1, say). Owners of other machines are
// never presumed gone; their leases end when they expire.
func Gone(o string) bool {
	rest, ok := strings.CutPrefix(o, "tender@")
	if !ok {
		return false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 {
		return false
	}
	host, _ := os.Hostname()
	pid, err := strconv.Atoi(parts[1])
	if parts[0] != host || err != nil || pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		nonce, _, _ := strings.Cut(parts[2], ".")
		return nonce != processNonce()
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	err = p.Signal(syscall.Signal(0))
	return err != nil && !errors.Is(err, syscall.EPERM)
}
