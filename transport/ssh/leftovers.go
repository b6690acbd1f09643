package ssh

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pkg/sftp"

	"github.com/tender-sh/tender/transport"
)

// Upload leftovers.
//
// Put writes to a temporary file beside the destination and renames it.
// When the connection dies mid-upload, that file cannot be removed over
// the dead connection (and the host's SFTP server may hold it open until
// it notices), so the next Put into the same directory removes it instead.
// No round trip is added for this, and no local state is kept beyond the
// running process: the file's name and age say enough.
//
// Every temporary upload file starts with transport.UploadPrefix, and the
// SFTP ones say who wrote them: .tender-upload-MACHINE-PID-RANDOM-NAME,
// where MACHINE is a hash of the control machine's host name and PID the
// writing tender process. The first Put into a directory on a connection
// lists that directory, concurrently with its own upload (same SFTP
// session; the Put does not wait for it, so no round trip is added), and
// removes the tender upload files that are
//
//   - this machine's and written by a process that is no longer running,
//   - this process's and not being written now (a Put that failed), or
//   - unchanged for transport.StaleUploadAge by the host's own clock (the
//     modification time of the Put's fresh temporary file is the host's
//     "now"): other machines' uploads, and those of scripts (become, no
//     SFTP) and of modules that stage files under the same prefix.
//
// An upload being written changes its modification time with every write;
// one unchanged for StaleUploadAge (the default keepalive bound: a
// connection that silent is declared dead) belongs to a dead or hung
// writer. Removing a hung writer's file only makes its rename fail: the
// destination is never half written. A directory is listed once per
// connection; one with many entries costs their names in bandwidth, not
// time. Nothing else on the host is touched. A process id reused by a live
// process only delays removal to StaleUploadAge; two control machines of
// the same host name can remove each other's live uploads, which then fail
// cleanly. Puts by script (become, hosts without SFTP) sweep by age only,
// in the same script (transport.SweepUploads).

// sweepGrace bounds how long Close waits for sweeps to finish.
const sweepGrace = 5 * time.Second

// maxNameInTemp bounds how much of the destination's name its temporary
// file repeats, keeping the whole under NAME_MAX.
const maxNameInTemp = 100

var (
	machineOnce sync.Once
	machineID   string

	inFlight sync.Map // temporary paths this process is writing now
)

// machine identifies the control machine in upload names.
func machine() string {
	machineOnce.Do(func() {
		h, _ := os.Hostname()
		s := sha256.Sum256([]byte(h))
		machineID = hex.EncodeToString(s[:4])
	})
	return machineID
}

// uploadTemp names Put's temporary file for dst's base name in dir.
func uploadTemp(dir, base string) string {
	if len(base) > maxNameInTemp {
		base = base[:maxNameInTemp]
	}
	return dir + transport.UploadPrefix + machine() + "-" + strconv.Itoa(os.Getpid()) + "-" + randomSuffix() + "-" + base
}

// uploadOwner parses an upload file's name: the machine and process that
// wrote it, ok false when the name does not say (a shell fallback's or a
// module's staged file).
func uploadOwner(name string) (mach string, pid int, ok bool) {
	rest, found := strings.CutPrefix(name, transport.UploadPrefix)
	if !found {
		return "", 0, false
	}
	f := strings.SplitN(rest, "-", 4)
	if len(f) < 4 || len(f[0]) != 8 || len(f[2]) != 12 {
		return "", 0, false
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 0 {
		return "", 0, false
	}
	return f[0], pid, true
}

// abandoned reports whether the upload file fi, in dir, has no live
// writer; now is the host's current time, zero when it is not known (then
// only the writer rules apply, not the age).
func abandoned(dir string, fi fs.FileInfo, now time.Time) bool {
	if !fi.Mode().IsRegular() || !strings.HasPrefix(fi.Name(), transport.UploadPrefix) {
		return false
	}
	if mach, pid, ok := uploadOwner(fi.Name()); ok && mach == machine() {
		if pid == os.Getpid() {
			_, writing := inFlight.Load(dir + fi.Name())
			return !writing
		}
		if !processAlive(pid) {
			return true
		}
	}
	return !now.IsZero() && now.Sub(fi.ModTime()) >= transport.StaleUploadAge
}

// sweep removes dir's abandoned upload files (see transport.UploadPrefix); own is
// the caller's fresh temporary file, whose modification time is the
// host's clock. It runs once per directory per connection, beside the
// Put that started it (Close waits for it), and gives up quietly on any
// error: it is housekeeping.
func (c *Conn) sweep(cl *sftp.Client, dir, own string) {
	c.sftpMu.Lock()
	if c.swept == nil {
		c.swept = map[string]bool{}
	}
	done := c.swept[dir]
	c.swept[dir] = true
	c.sftpMu.Unlock()
	if done {
		return
	}
	list := dir
	if list == "" {
		list = "."
	}
	entries, err := cl.ReadDir(list)
	if err != nil {
		c.unswept(dir)
		return
	}
	var now time.Time
	for _, fi := range entries {
		if dir+fi.Name() == own {
			now = fi.ModTime()
		}
	}
	// A small upload can be renamed into place before the listing: its
	// time is then unknown, but the files of this machine's gone writers
	// are still removed.
	for _, fi := range entries {
		if isDead(c.dead) {
			return
		}
		if dir+fi.Name() != own && abandoned(dir, fi, now) {
			_ = cl.Remove(path.Join(list, fi.Name()))
		}
	}
}

// unswept makes the next Put into dir on this connection sweep it again.
func (c *Conn) unswept(dir string) {
	c.sftpMu.Lock()
	delete(c.swept, dir)
	c.sftpMu.Unlock()
}
