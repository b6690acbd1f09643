package ssh

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/skeema/knownhosts"
	xssh "golang.org/x/crypto/ssh"
	xknownhosts "golang.org/x/crypto/ssh/knownhosts"

	"github.com/tender-sh/tender/transport"
)

// HostKeyPolicy says what to do with a host key that known_hosts does not
// vouch for.
type HostKeyPolicy int

const (
	// HostKeyDefault follows the host's StrictHostKeyChecking (ssh config
	// or common args; "no" counts as accept-new), else HostKeyStrict.
	HostKeyDefault HostKeyPolicy = iota
	// HostKeyStrict refuses hosts whose key is not in known_hosts.
	HostKeyStrict
	// HostKeyAcceptNew records the key of a host known_hosts does not
	// list yet, and refuses a key that differs from the recorded one.
	HostKeyAcceptNew
	// HostKeyInsecure accepts any key without checking. Callers must
	// have been asked for it explicitly, and should warn.
	HostKeyInsecure
)

// String names the policy as StrictHostKeyChecking would.
func (p HostKeyPolicy) String() string {
	return [...]string{"default", "strict", "accept-new", "insecure"}[p]
}

// ParseHostKeyPolicy reads a policy as a command line would give it:
// "strict" (or "yes"), "accept-new", or "insecure" (or "off"); "" is
// HostKeyDefault.
func ParseHostKeyPolicy(s string) (HostKeyPolicy, error) {
	switch strings.ToLower(s) {
	case "", "default":
		return HostKeyDefault, nil
	case "strict", "yes":
		return HostKeyStrict, nil
	case "accept-new":
		return HostKeyAcceptNew, nil
	case "insecure", "off", "no-check":
		return HostKeyInsecure, nil
	}
	return HostKeyDefault, fmt.Errorf("unknown host key policy %q (want strict, accept-new or insecure)", s)
}

// HostKeyError is a host key that was refused.
type HostKeyError struct {
	Host        string   // host or [host]:port, as in known_hosts
	Changed     bool     // known_hosts holds a different key (else: host unknown)
	Key         string   // the presented key's type and SHA256 fingerprint
	KnownHosts  []string // the files consulted
	Conflicting []string // file:line of the entries that did not match
}

// Error returns the message the user sees.
func (e *HostKeyError) Error() string {
	if e.Changed {
		return fmt.Sprintf("REMOTE HOST IDENTIFICATION HAS CHANGED for %s: it presented %s, which does not match %s. "+
			"Someone could be eavesdropping (a man-in-the-middle attack), or the host was reinstalled. "+
			"If you are sure the new key is right, remove the old entry (ssh-keygen -R %s) and connect again",
			e.Host, e.Key, strings.Join(e.Conflicting, ", "), e.Host)
	}
	return fmt.Sprintf("host key verification failed: %s (%s) is not in %s and host key checking is strict; "+
		"check the fingerprint and add it (ssh-keyscan), or connect once with the accept-new host key policy",
		e.Host, e.Key, strings.Join(e.KnownHosts, ", "))
}

// Is makes errors.Is(err, transport.ErrHostKey) hold for a HostKeyError.
func (e *HostKeyError) Is(target error) bool { return target == transport.ErrHostKey }

func (d *Dialer) policy(h *hop) HostKeyPolicy {
	if d.HostKeys != HostKeyDefault {
		return d.HostKeys
	}
	switch h.strict {
	case "accept-new", "no", "off":
		return HostKeyAcceptNew
	}
	return HostKeyStrict
}

// hostKeyCallback returns the check for h's key and the host key
// algorithms to offer: those of the keys known_hosts has for addr, so the
// server presents a key we can compare (skeema/knownhosts).
func (d *Dialer) hostKeyCallback(h *hop, addr string) (xssh.HostKeyCallback, []string, error) {
	policy := d.policy(h)
	if policy == HostKeyInsecure {
		return xssh.InsecureIgnoreHostKey(), nil, nil
	}
	db, err := d.known.db(h)
	if err != nil {
		return nil, nil, err
	}
	var algos []string
	if db != nil {
		algos = db.HostKeyAlgorithms(addr)
	}
	cb := func(hostname string, remote net.Addr, key xssh.PublicKey) error {
		if db != nil {
			err := db.HostKeyCallback()(hostname, remote, key)
			switch {
			case err == nil:
				return nil
			case knownhosts.IsHostKeyChanged(err):
				return changedError(db, hostname, key, h.knownHosts, err)
			case !knownhosts.IsHostUnknown(err):
				return err
			}
		}
		if policy == HostKeyAcceptNew {
			return d.acceptNew(h, hostname, remote, key)
		}
		return &HostKeyError{Host: knownhosts.Normalize(hostname), Key: describeKey(key), KnownHosts: h.knownHosts}
	}
	return cb, algos, nil
}

func describeKey(key xssh.PublicKey) string {
	return key.Type() + " key " + xssh.FingerprintSHA256(key)
}

func changedError(db *knownHostsDB, hostname string, key xssh.PublicKey, files []string, err error) error {
	e := &HostKeyError{Host: knownhosts.Normalize(hostname), Changed: true, Key: describeKey(key), KnownHosts: files}
	var ke *xknownhosts.KeyError
	if errors.As(err, &ke) {
		for _, k := range ke.Want {
			e.Conflicting = append(e.Conflicting, fmt.Sprintf("%s:%d", k.Filename, k.Line))
		}
	}
	return e
}

// acceptNew records key for hostname in the first known_hosts file, under
// a lock (this process's and an advisory file lock, for other processes),
// checking again first in case someone else recorded the host meanwhile.
func (d *Dialer) acceptNew(h *hop, hostname string, remote net.Addr, key xssh.PublicKey) error {
	d.known.mu.Lock()
	defer d.known.mu.Unlock()
	files := h.knownHosts
	file := files[0]
	if err := h.checkWrite(file); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("known_hosts: %w", err)
	}
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("known_hosts: %w", err)
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return fmt.Errorf("known_hosts: lock %s: %w", file, err)
	}
	defer unlockFile(f)
	db, err := readKnownHosts(files, h)
	if err != nil {
		return err
	}
	if db != nil {
		err := db.HostKeyCallback()(hostname, remote, key)
		if err == nil {
			return nil
		}
		if knownhosts.IsHostKeyChanged(err) {
			return changedError(db, hostname, key, files, err)
		}
	}
	var line bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line.WriteByte('\n')
		}
	}
	line.WriteString(knownhosts.Line([]string{hostname}, key) + "\n")
	if _, err := io.Copy(f, &line); err != nil {
		return fmt.Errorf("known_hosts: append to %s: %w", file, err)
	}
	d.known.dbs = nil // every cached database is now stale
	return nil
}
