package ssh

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// cutAfter is an endless source that freezes the connection once n bytes
// were read from it.
type cutAfter struct {
	n    int
	read int
	cut  func()
}

func (r *cutAfter) Read(p []byte) (int, error) {
	if r.read >= r.n && r.cut != nil {
		r.cut()
		r.cut = nil
	}
	for i := range p {
		p[i] = 'x'
	}
	r.read += len(p)
	return len(p), nil
}

// uploads lists dir's tender upload files.
func uploads(t *testing.T, dir string) []string {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(dir, transport.UploadPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range left {
		left[i] = filepath.Base(left[i])
	}
	sort.Strings(left)
	return left
}

// TestPutCutMidUpload cuts the network in the middle of an SFTP upload:
// Put fails as unreachable within the keepalive bound, the destination is
// not written, and the temporary file it could not remove over the dead
// connection is gone after the next Put into that directory.
func TestPutCutMidUpload(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	c, fz := f.viaFreezer(t)
	dir := t.TempDir()
	dst := filepath.Join(dir, "agent.tar.gz")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	err := c.Put(ctx, dst, &cutAfter{n: 1 << 20, cut: fz.freeze}, 0o644)
	if !errors.Is(err, transport.ErrUnreachable) {
		t.Fatalf("Put cut mid-upload: %v, want ErrUnreachable", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the cut was noticed after %v", d)
	}
	if _, err := os.Stat(dst); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("destination after the cut: %v", err)
	}
	left := uploads(t, dir)
	if len(left) != 1 {
		t.Fatalf("want the cut upload's temporary file left over the dead connection, got %v", left)
	}

	next := f.connect(t)
	if err := next.Put(ctx, dst, strings.NewReader("whole"), 0o644); err != nil {
		t.Fatal(err)
	}
	next.Close() // waits for the sweep
	if got := uploads(t, dir); len(got) != 0 {
		t.Errorf("left after the next Put: %v", got)
	}
	if b, _ := os.ReadFile(dst); string(b) != "whole" {
		t.Errorf("destination holds %q", b)
	}
}

// TestPutSweepsOnlyAbandonedUploads: the first Put into a directory
// removes tender upload files whose writer is gone (a dead process of this
// machine, or this process when not writing them) or that have not changed
// for transport.StaleUploadAge, and keeps everything else.
func TestPutSweepsOnlyAbandonedUploads(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	me, parent, gone := strconv.Itoa(os.Getpid()), strconv.Itoa(os.Getppid()), strconv.Itoa(dead.Process.Pid)
	old := time.Now().Add(-transport.StaleUploadAge - time.Minute)
	files := []struct {
		name   string
		old    bool
		remove bool
	}{
		{transport.UploadPrefix + machine() + "-" + gone + "-0123456789ab-x", false, true},    // its process ended
		{transport.UploadPrefix + machine() + "-" + me + "-0123456789ab-x", false, true},      // this process, not writing it
		{transport.UploadPrefix + machine() + "-" + parent + "-0123456789ab-x", false, false}, // a live process may be writing it
		{transport.UploadPrefix + machine() + "-" + parent + "-0123456789ac-x", true, true},   // ... but not for that long
		{transport.UploadPrefix + "00000000-" + me + "-0123456789ab-x", false, false},         // another machine's
		{transport.UploadPrefix + "00000000-" + me + "-0123456789ac-x", true, true},
		{transport.UploadPrefix + "0123456789abcdef", false, false}, // a staged upload
		{transport.UploadPrefix + "0123456789abcdee", true, true},
		{".tender-unrelated", true, false},
		{"agent.tar.gz.bak", true, false},
	}
	for _, fl := range files {
		p := filepath.Join(dir, fl.name)
		if err := os.WriteFile(p, []byte("part"), 0o600); err != nil {
			t.Fatal(err)
		}
		if fl.old {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Mkdir(filepath.Join(dir, transport.UploadPrefix+"dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Put(ctx, filepath.Join(dir, "agent.tar.gz"), io.LimitReader(bytes.NewReader(make([]byte, 1<<20)), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	c.Close() // waits for the sweep
	for _, fl := range files {
		_, err := os.Stat(filepath.Join(dir, fl.name))
		if gone := errors.Is(err, os.ErrNotExist); gone != fl.remove {
			t.Errorf("%s: removed %v, want %v", fl.name, gone, fl.remove)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, transport.UploadPrefix+"dir")); err != nil {
		t.Errorf("a directory was removed: %v", err)
	}
}

func TestUploadOwner(t *testing.T) {
	name := filepath.Base(uploadTemp("/opt/x/", "a-b-c"))
	if mach, pid, ok := uploadOwner(name); !ok || mach != machine() || pid != os.Getpid() {
		t.Errorf("uploadOwner(%q) = %q %d %v", name, mach, pid, ok)
	}
	for _, name := range []string{transport.UploadPrefix + "0123456789abcdef", transport.UploadPrefix + "abcdefgh-x-0123456789ab-n", "x"} {
		if _, _, ok := uploadOwner(name); ok {
			t.Errorf("uploadOwner(%q) parsed", name)
		}
	}
	if long := filepath.Base(uploadTemp("/", strings.Repeat("n", 300))); len(long) > 255 {
		t.Errorf("temporary name of %d bytes", len(long))
	}
}
