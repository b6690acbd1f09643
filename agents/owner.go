package agents

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Owner names this process for leases and rollouts:
// "tender@HOSTNAME:PID:NONCE". The nonce tells two runs apart when a pid
// is reused.
func Owner() string {
	host, _ := os.Hostname()
	var b [4]byte
	rand.Read(b[:])
	return fmt.Sprintf("tender@%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// Gone reports whether the owner named by o (as Owner makes them) is a
// process of this machine that no longer runs: a controller that was
// killed. Owners of other machines are never presumed gone; their leases
// end when they expire.
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
	if parts[0] != host || err != nil || pid <= 0 || pid == os.Getpid() {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	err = p.Signal(syscall.Signal(0))
	return err != nil && !errors.Is(err, syscall.EPERM)
}
