//go:build unix

package agents

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks/builtin"
)

// TestLoadBundleRefusesNonRegularFiles: a FIFO, a socket, a device or a
// directory named as a tracked file is refused, with the manifest's
// position and what the file is, and the load does not wait for a FIFO's
// writer or read a device without end.
func TestLoadBundleRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A socket's path must be short: make it in a short directory.
	sockDir, err := os.MkdirTemp("", "tb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	ln, err := net.Listen("unix", filepath.Join(sockDir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if err := os.Symlink(filepath.Join(sockDir, "s"), filepath.Join(dir, "sock")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "p.yml"), []byte("- hosts: all\n  tasks: []\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ManifestName), []byte(`name: a
version: "1"
port: 1
files:
  - {src: fifo, dest: /a}
  - {src: sock, dest: /b}
  - {src: /dev/zero, dest: /c}
  - {src: sub, dest: /d}
playbook: p.yml
`), 0o644)
	done := make(chan error, 1)
	go func() {
		_, err := LoadBundle(dir, LoadOptions{Modules: builtin.Registry()})
		done <- err
	}()
	var err2 error
	select {
	case err2 = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("LoadBundle hangs on a non-regular tracked file")
	}
	if err2 == nil {
		t.Fatal("non-regular tracked files were accepted")
	}
	for _, want := range []string{
		"agent.yaml:5:11: src: read " + filepath.Join(dir, "fifo") + ": a named pipe (FIFO); a tracked file must be a regular file",
		"agent.yaml:6:11: src: read " + filepath.Join(dir, "sock") + ": a socket; a tracked file must be a regular file",
		"agent.yaml:7:11: src: read /dev/zero: a device; a tracked file must be a regular file",
		"agent.yaml:8:11: src: read " + filepath.Join(dir, "sub") + ": a directory; a tracked file must be a regular file",
	} {
		if !strings.Contains(err2.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err2)
		}
	}
}
