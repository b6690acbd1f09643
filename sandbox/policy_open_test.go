package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/testhook"
)

func TestPolicyOpen(t *testing.T) {
	root := sandboxDirs(t)
	ok := filepath.Join(root, "ok")
	p := &Policy{Name: "s.yml", Read: []string{ok}}
	for path, want := range map[string]string{ok + "/a.txt": "a", ok + "/up/a.txt": "a", ok + "/sub/../a.txt": "a"} {
		if b, err := p.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("%s: %q %v", path, b, err)
		}
	}
	if ents, err := p.ReadDir(ok); err != nil || len(ents) < 3 || ents[0].Name() > ents[1].Name() {
		t.Errorf("ReadDir: %v %v", ents, err)
	}
	if _, err := p.Open(ok + "/missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	for _, path := range []string{ok + "/file", ok + "/out/secret.txt", root + "/secret/secret.txt"} {
		b, err := p.ReadFile(path)
		var de *DeniedError
		if !errors.As(err, &de) || b != nil {
			t.Errorf("%s: %q %v", path, b, err)
		}
		if _, err := p.ReadDir(filepath.Dir(path)); path != ok+"/file" && !errors.As(err, &de) {
			t.Errorf("ReadDir %s: %v", filepath.Dir(path), err)
		}
	}
	var nilPolicy *Policy
	if b, err := nilPolicy.ReadFile(root + "/secret/secret.txt"); err != nil || string(b) != "s" {
		t.Errorf("nil policy: %q %v", b, err)
	}
}

// TestPolicyOpenRace swaps, between Open's check and its open, a file
// and then a directory of the allowed area for symlinks leading out: what
// is opened is never outside, and the refusal says where the path leads
// now.
func TestPolicyOpenRace(t *testing.T) {
	root := sandboxDirs(t)
	ok := filepath.Join(root, "ok")
	os.MkdirAll(filepath.Join(ok, "dir"), 0o755)
	os.WriteFile(filepath.Join(ok, "dir/secret.txt"), []byte("decoy"), 0o644)
	p := &Policy{Name: "s.yml", Read: []string{ok}}
	swap := map[string]string{ // what becomes a link, to where
		ok + "/a.txt": root + "/secret/secret.txt",
		ok + "/dir":   "../secret",
	}
	for victim, target := range swap {
		path := victim
		if victim == ok+"/dir" {
			path = victim + "/secret.txt"
		}
		testhook.BeforeOpen = func(string) {
			if err := os.RemoveAll(victim); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, victim); err != nil {
				t.Fatal(err)
			}
		}
		b, err := p.ReadFile(path)
		testhook.BeforeOpen = nil
		var de *DeniedError
		if !errors.As(err, &de) || string(b) == "s" || !strings.Contains(err.Error(), "which leads to "+root+"/secret/secret.txt") {
			t.Errorf("%s swapped: %q, %v", victim, b, err)
		}
	}
}

func TestPolicyOpenErrorsAsOSOpen(t *testing.T) {
	root := sandboxDirs(t)
	ok := filepath.Join(root, "ok")
	p := &Policy{Read: []string{ok}}
	_, want := os.Open(ok + "/missing")
	if _, err := p.Open(ok + "/missing"); err == nil || err.Error() != want.Error() {
		t.Errorf("got %v, want %v", err, want)
	}
}
