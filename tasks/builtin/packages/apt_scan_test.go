package packages

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// scanStatus is a dpkg status file with the stanzas the scan must tell
// apart: one removed with its configuration kept (whose description
// holds a line that looks like a Package field), one installed, one of
// two architectures, one half-configured, one whose Package line is not
// the usual two words.
const scanStatus = `Package: gone
Status: deinstall ok config-files
Version: 0.1
Description: removed
 Package: a

Package: a
Status: install ok installed
Priority: optional
Version: 1.0

Package: m
Status: install ok installed
Architecture: amd64
Version: 2

Package: m
Status: install ok installed
Architecture: i386
Version: 2

Package: h
Status: install ok half-configured
Version: 3

Package: odd extra
Status: install ok installed
Version: 4
`

// TestAptScanStanzas: the scan of dpkg's status file, read a stanza at a
// time, says of each name what dpkg-query would (or that only
// dpkg-query can tell), and finds a name marked as installed
// automatically, for each awk a host may have.
func TestAptScanStanzas(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "status"), []byte(scanStatus), 0o644); err != nil {
		t.Fatal(err)
	}
	awks := map[string]string{"awk": ""}
	if p, err := exec.LookPath("busybox"); err == nil {
		bin := t.TempDir()
		if err := os.Symlink(p, filepath.Join(bin, "awk")); err != nil {
			t.Fatal(err)
		}
		awks["busybox awk"] = bin + ":"
	}
	cases := []struct{ list, want string }{
		{"a\ngone\nm\nh\nodd\nnone\n", "\na\tii |1.0\ngone\tun |\nm\t?\nh\tun |\nodd\tun |\nnone\tun |"},
		{"a>=1.0\nm:i386\nl*\n", "\na\tii |1.0\nm:i386\t?\nl*\t?"},
		{"a\na\n", "\na\tii |1.0"},
	}
	for tool, path := range awks {
		for _, c := range cases {
			script := modtest.ShFunc(t, aptScript, "_t_scan") + `list=$1; _t_scan; printf '%s' "$dstat"`
			cmd := exec.Command("/bin/sh", "-c", script, "sh", c.list)
			cmd.Env = append(os.Environ(), "DPKG_ADMINDIR="+dir, "PATH="+path+os.Getenv("PATH"))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %q: %v", tool, c.list, err)
			}
			// The host's own extended_states may mark one of the names.
			got := strings.TrimSuffix(string(out), "\n\tauto")
			if got != c.want {
				t.Errorf("%s %q:\n got %q\nwant %q", tool, c.list, got, c.want)
			}
		}
	}
}

// TestAptScanAgainstDpkgQuery: where dpkg is installed, the scan of the
// real status file gives what dpkg-query -W gives for installed
// packages, and "un" for a name it does not know.
func TestAptScanAgainstDpkgQuery(t *testing.T) {
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		t.Skip("no dpkg-query here")
	}
	names := []string{"dpkg", "coreutils", "bash", "tender-no-such-package"}
	script := modtest.ShFunc(t, aptScript, "_t_scan") + `list=$1; _t_scan; printf '%s' "$dstat"`
	out, err := exec.Command("/bin/sh", "-c", script, "sh", strings.Join(names, "\n")+"\n").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		q, _ := exec.Command("dpkg-query", "-W", "-f=${db:Status-Abbrev}|${Version}", "--", n).Output()
		want := string(q)
		if !strings.HasPrefix(want, "ii") {
			want = "un |"
		}
		if !strings.Contains(string(out), "\n"+n+"\t"+want+"\n") && !strings.HasSuffix(string(out), "\n"+n+"\t"+want) {
			t.Errorf("%s: scan says\n%s\ndpkg-query %q", n, out, q)
		}
	}
}

// TestAptOnPath: the apt script finds a program on $PATH where command -v
// does, empty elements being the current directory, and fails where it
// finds none.
func TestAptOnPath(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/tool", "b/tool", "c/plain", "tool"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		mode := os.FileMode(0o755)
		if strings.HasPrefix(p, "c/") {
			mode = 0o644
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "d", "tool"), 0o755) // a directory is no program
	for _, path := range []string{"d:a:b", "b:a", ":a", "c", "d:c:", "/nonexistent"} {
		for _, prog := range []string{"tool", "plain"} {
			script := modtest.ShFunc(t, aptScript, "_t_onpath") + `PATH=$1; _t_onpath got "$2" && printf '%s' "$got"; printf '|'; command -v "$2"; :`
			cmd := exec.Command("/bin/sh", "-c", script, "sh", path, prog)
			cmd.Dir = dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s: %v", path, prog, err)
			}
			got, want, _ := strings.Cut(strings.TrimSuffix(string(out), "\n"), "|")
			if got != want {
				t.Errorf("PATH=%s %s: found %q, command -v %q", path, prog, got, want)
			}
		}
	}
}
