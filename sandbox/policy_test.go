package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPolicyNilAllows(t *testing.T) {
	var p *Policy
	for _, err := range []error{p.CheckLookup("file"), p.CheckRead("/etc/shadow"), p.CheckWrite("/x"), p.CheckLocal("delegate_to: localhost"), p.Validate()} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestPolicyZeroDenies(t *testing.T) {
	p := &Policy{Name: "tenant-a"}
	for _, err := range []error{p.CheckLookup("items"), p.CheckRead("/etc/shadow"), p.CheckWrite("/tmp/x"), p.CheckLocal("delegate_to: localhost")} {
		var de *DeniedError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), "controller sandbox tenant-a") {
			t.Fatalf("%v", err)
		}
	}
}

// sandboxDirs makes ok/ (allowed), ok/sub/, secret/secret.txt and, in
// ok/, links out: out -> ../secret, file -> ../secret/secret.txt,
// dangling -> ../secret/new, up -> sub/.. (stays inside).
func sandboxDirs(t *testing.T) (root string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"ok/sub", "secret"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "secret/secret.txt"), []byte("s"), 0o600)
	os.WriteFile(filepath.Join(root, "ok/a.txt"), []byte("a"), 0o600)
	for name, target := range map[string]string{"out": "../secret", "file": "../secret/secret.txt",
		"dangling": "../secret/new", "up": "sub/..", "abs": filepath.Join(root, "secret")} {
		if err := os.Symlink(target, filepath.Join(root, "ok", name)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestPolicyPaths(t *testing.T) {
	root := sandboxDirs(t)
	ok := filepath.Join(root, "ok")
	p := &Policy{Name: "s.yml", Read: []string{ok}, Write: []string{filepath.Join(ok, "sub")}}
	allowed := []string{ok, ok + "/a.txt", ok + "/missing", ok + "/sub/x", ok + "/up/a.txt", ok + "/sub/../a.txt"}
	for _, path := range allowed {
		if err := p.CheckRead(path); err != nil {
			t.Errorf("read %s: %v", path, err)
		}
	}
	denied := map[string]string{
		ok + "/../secret/secret.txt": "",
		ok + "/out/secret.txt":       root + "/secret/secret.txt",
		ok + "/file":                 root + "/secret/secret.txt",
		ok + "/abs":                  root + "/secret",
		ok + "/dangling":             root + "/secret/new",
		ok + "/missing/../out/x":     root + "/secret/x",
		ok + "x/a.txt":               "", // a sibling whose name starts with ok
		"/etc/shadow":                "",
	}
	for path, leads := range denied {
		err := p.CheckRead(path)
		var de *DeniedError
		if !errors.As(err, &de) {
			t.Errorf("read %s: %v", path, err)
			continue
		}
		if leads != "" && de.Resolved != leads {
			t.Errorf("read %s: resolved %q, want %q", path, de.Resolved, leads)
		}
		if !strings.Contains(err.Error(), "does not allow reading "+path) || !strings.Contains(err.Error(), "readable: "+ok) {
			t.Errorf("read %s: %v", path, err)
		}
	}
	if err := p.CheckWrite(ok + "/sub/new"); err != nil {
		t.Error(err)
	}
	for _, path := range []string{ok + "/a.txt", ok + "/sub/../a.txt", ok + "/dangling"} {
		if err := p.CheckWrite(path); err == nil || !strings.Contains(err.Error(), "writing") {
			t.Errorf("write %s: %v", path, err)
		}
	}
	// a relative path is the working directory's
	t.Chdir(ok)
	if err := p.CheckRead("a.txt"); err != nil {
		t.Error(err)
	}
	if err := p.CheckRead("../secret/secret.txt"); err == nil {
		t.Error("relative escape allowed")
	}
	loop := filepath.Join(ok, "loop")
	os.Symlink("loop", loop)
	if err := p.CheckRead(loop); err == nil || !strings.Contains(err.Error(), "too many levels") {
		t.Errorf("loop: %v", err)
	}
}

func TestPolicyLookupsLocal(t *testing.T) {
	p := &Policy{Lookups: []string{"items", "ansible.builtin.file"}}
	for _, n := range []string{"items", "ansible.builtin.items", "file", "ansible.legacy.file"} {
		if err := p.CheckLookup(n); err != nil {
			t.Error(err)
		}
	}
	if err := p.CheckLookup("password"); err == nil || !strings.Contains(err.Error(), "lookup password (lookups allowed: items, ansible.builtin.file)") {
		t.Errorf("%v", err)
	}
	if err := p.CheckLocal("delegate_to: localhost"); err == nil || !strings.Contains(err.Error(), "run on the controller (delegate_to: localhost)") {
		t.Errorf("%v", err)
	}
	p.Local = true
	if err := p.CheckLocal("x"); err != nil {
		t.Error(err)
	}
}

func TestPolicyValidate(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want string
	}{
		{Policy{Lookups: []string{"file", "nope"}}, `"nope" is not a lookup plugin`},
		{Policy{Lookups: []string{"pipe"}}, "pipe lookup runs commands on the controller: allowing it needs local: true"},
		{Policy{Read: []string{"rel"}}, `"rel" is not an absolute path`},
		{Policy{Write: []string{""}}, `"" is not an absolute path`},
	} {
		if err := c.p.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.want)
		}
	}
	if err := (&Policy{Lookups: []string{"pipe", "ansible.builtin.file"}, Local: true, Read: []string{"/"}}).Validate(); err != nil {
		t.Error(err)
	}
}
