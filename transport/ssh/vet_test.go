package ssh

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// testFiles allows reading under read and writing under write, and
// records what it was asked and what it opened.
type testFiles struct {
	read, write string
	mu          sync.Mutex
	asked       []string
	opened      []string
}

var errRefused = errors.New("refused")

func (f *testFiles) CheckRead(p string) error {
	f.mu.Lock()
	f.asked = append(f.asked, p)
	f.mu.Unlock()
	if !strings.HasPrefix(p, f.read+"/") {
		return fmt.Errorf("%w: reading %s", errRefused, p)
	}
	return nil
}

func (f *testFiles) CheckWrite(p string) error {
	if f.write == "" || !strings.HasPrefix(p, f.write+"/") {
		return fmt.Errorf("%w: writing %s", errRefused, p)
	}
	return nil
}

func (f *testFiles) Open(p string) (*os.File, error) {
	if err := f.CheckRead(p); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.opened = append(f.opened, p)
	f.mu.Unlock()
	return os.Open(p)
}

// TestFilesVetsWhatTheTargetNames: every controller file the Target
// names (its key files, -i, -o IdentityFile=, -o UserKnownHostsFile=,
// with ~ expanded) is asked about before anything is dialled; a refusal
// fails Connect with the refusal itself, not as unreachable, and the
// server sees no connection. Files the Dialer's own settings name are
// not asked about.
func TestFilesVetsWhatTheTargetNames(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	home, _ := os.UserHomeDir()
	outside := filepath.Join(t.TempDir(), "outside")
	for _, c := range []struct {
		name string
		tg   func(tg transport.Target) transport.Target
		want string
	}{
		{"key file", func(tg transport.Target) transport.Target { tg.KeyFiles = []string{outside}; return tg }, outside},
		{"key file with ~", func(tg transport.Target) transport.Target { tg.KeyFiles = []string{"~/id_x"}; return tg }, home + "/id_x"},
		{"-i", func(tg transport.Target) transport.Target {
			tg.Options = map[string]any{OptCommonArgs: "-i " + outside}
			return tg
		}, outside},
		{"IdentityFile", func(tg transport.Target) transport.Target {
			tg.Options = map[string]any{OptExtraArgs: "-o IdentityFile=" + outside}
			return tg
		}, outside},
		{"UserKnownHostsFile", func(tg transport.Target) transport.Target {
			tg.Options = map[string]any{OptCommonArgs: "-o UserKnownHostsFile=" + outside}
			return tg
		}, outside},
	} {
		d := &Dialer{ConfigFile: "none", NoAgent: true, User: "tester", KeyFiles: []string{f.key.file}}
		if c.name != "UserKnownHostsFile" {
			d.KnownHosts = f.dialer.KnownHosts
		}
		files := &testFiles{read: filepath.Dir(f.key.file)}
		tg := c.tg(f.target())
		tg.Files = files
		_, err := d.Connect(context.Background(), tg)
		if !errors.Is(err, errRefused) || errors.Is(err, transport.ErrUnreachable) || !strings.Contains(err.Error(), "reading "+c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if n := f.srv.Stats().Conns; n != 0 {
		t.Errorf("%d connections reached the server", n)
	}
	// the Dialer's own key and known_hosts files are the operator's
	files := &testFiles{read: "/nowhere"}
	d := &Dialer{ConfigFile: "none", NoAgent: true, User: "tester", KeyFiles: []string{f.key.file}, KnownHosts: f.dialer.KnownHosts}
	c, err := d.Connect(context.Background(), transport.Target{Name: "h", Host: f.srv.Host(), Port: f.srv.Port(), Files: files})
	if err != nil || len(files.asked) != 0 {
		t.Fatalf("the Dialer's own files: %v, asked about %v", err, files.asked)
	}
	c.Close()
}

// TestFilesWarningsReadNothingRefused: Warnings does not read a
// known_hosts file the Target names and Files refuses (its bad lines
// would tell what it holds).
func TestFilesWarningsReadNothingRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	outside := filepath.Join(t.TempDir(), "known_hosts")
	os.WriteFile(outside, []byte("@secret-marker host ssh-ed25519 AAAA\n"), 0o600)
	d := &Dialer{ConfigFile: "none", NoAgent: true, User: "tester"}
	tg := f.target()
	tg.Options = map[string]any{OptCommonArgs: "-o UserKnownHostsFile=" + outside}
	if w := strings.Join(d.Warnings(tg), "\n"); !strings.Contains(w, "secret-marker") {
		t.Fatalf("without Files, the warning names the line: %q", w)
	}
	d = &Dialer{ConfigFile: "none", NoAgent: true, User: "tester"}
	tg.Files = &testFiles{read: filepath.Dir(f.key.file)}
	if w := d.Warnings(tg); len(w) != 0 {
		t.Errorf("warnings from a refused file: %q", w)
	}
}

// TestFilesOpensWhatItVetted: an allowed key file and known_hosts file
// named by the Target are read through Files.Open, and the login works;
// accept-new may not record a new host in a known_hosts file the Target
// named unless Files allows writing it.
func TestFilesOpensWhatItVetted(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sshtest.Options{})
	dir := filepath.Dir(f.key.file)
	known := filepath.Join(dir, "known_hosts")
	data, _ := os.ReadFile(f.dialer.KnownHosts[0])
	os.WriteFile(known, data, 0o600)
	d := &Dialer{ConfigFile: "none", NoAgent: true, User: "tester"}
	files := &testFiles{read: dir}
	tg := f.target()
	tg.Options, tg.Files = map[string]any{OptCommonArgs: "-o UserKnownHostsFile=" + known}, files
	c, err := d.Connect(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if !slices.Contains(files.opened, f.key.file) || !slices.Contains(files.opened, known) {
		t.Errorf("opened %v, want the key file and known_hosts", files.opened)
	}
	// accept-new into a known_hosts file that may be read, not written
	empty := filepath.Join(dir, "empty_known_hosts")
	tg.Options = map[string]any{OptCommonArgs: "-o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=" + empty}
	_, err = d.Connect(context.Background(), tg)
	if !errors.Is(err, errRefused) || errors.Is(err, transport.ErrUnreachable) || !strings.Contains(err.Error(), "writing "+empty) {
		t.Errorf("accept-new: %v", err)
	}
	if _, serr := os.Stat(empty); serr == nil {
		t.Error("accept-new wrote the known_hosts file")
	}
	files.write = dir
	if c, err := d.Connect(context.Background(), tg); err != nil {
		t.Errorf("accept-new allowed: %v", err)
	} else {
		c.Close()
	}
}
