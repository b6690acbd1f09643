package agents

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/tender-sh/tender/playbooks"

	"github.com/tender-sh/tender/tasks/builtin"

	"github.com/tender-sh/tender/tasks"
)

func TestLoadBundle(t *testing.T) {
	b, err := LoadBundle("testdata/good", LoadOptions{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "demo" || b.Version != "1.2" || b.Port != 9000 || b.Probe != ProbeHost || len(b.Files) != 2 {
		t.Fatalf("bundle %+v", b)
	}
	sum := md5.Sum([]byte("binary v1\n"))
	f := b.Files[0]
	if f.MD5 != hex.EncodeToString(sum[:]) || f.Size != 10 || f.Mode != "0755" || f.Owner != "root" || !filepath.IsAbs(f.Src) {
		t.Errorf("file %+v", f)
	}
	if got := strings.Join(b.Dests(), ","); got != "/opt/demo/agent,/etc/init.d/demo" {
		t.Errorf("Dests %s", got)
	}
	if b.Vars["demo_port"] != 9000 || b.Playbook == nil || len(b.Playbook.Plays) != 1 {
		t.Errorf("vars %v playbook %+v", b.Vars, b.Playbook)
	}
	if b.Playbook.Plays[0].Vars["demo_port"] != 9000 {
		t.Errorf("bundle vars not given to the play: %v", b.Playbook.Plays[0].Vars)
	}
}

func TestLoadBundleErrorsHavePositions(t *testing.T) {
	_, err := LoadBundle("testdata/bad", LoadOptions{Modules: builtin.Registry()})
	var list playbooks.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("err %v (%T), want an ErrorList", err, err)
	}
	want := []string{
		"agent.yaml:3:7: port \"70000\"",
		"agent.yaml:4:8: probe \"sideways\"",
		"agent.yaml:5:1: \"colour\" is not a manifest key",
		"agent.yaml:7:10: src: stat",
		"agent.yaml:8:11: dest \"relative/path\"",
		"agent.yaml:9:11: mode \"rwx\"",
		"agent.yaml:10:37: \"size\" is not a file key",
		"agent.yaml:11:29: dest \"/etc/x\" is tracked twice",
		// The playbook is checked although the manifest has errors.
		"deploy.yml:3:",
	}
	msg := err.Error()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("missing %q in:\n%s", w, msg)
		}
	}
}

func TestLoadBundleManifestSyntaxAndEmptyHealth(t *testing.T) {
	for _, c := range []struct{ manifest, want string }{
		{"name: a\nversion: \"1\"\nfiles: [\n  {src: x\n", "agent.yaml:4:"},
		{"name: a\nversion: \"1\"\nport: 1\n  bad: indent\n", "agent.yaml:4:"},
		{"name: a\nversion: \"1\"\nhealth: \"\"\nfiles: [{src: agent.yaml, dest: /x}]\nplaybook: p.yml\n", "agent.yaml:3:9: health is empty"},
		{"name: a\nversion: \"1\"\nport: 1\nservice: \"a b; rm\"\nfiles: [{src: agent.yaml, dest: /x}]\nplaybook: p.yml\n", "agent.yaml:4:10: service \"a b; rm\": want a service's name"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, ManifestName), []byte(c.manifest), 0o644)
		os.WriteFile(filepath.Join(dir, "p.yml"), []byte("- hosts: all\n  tasks: []\n"), 0o644)
		_, err := LoadBundle(dir, LoadOptions{Modules: builtin.Registry()})
		var list playbooks.ErrorList
		if !errors.As(err, &list) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want a positioned %q", c.manifest, err, c.want)
		}
	}
}

func TestLoadBundleRejectsUnknownModule(t *testing.T) {
	_, err := LoadBundle("testdata/badpb", LoadOptions{Modules: restrictedModules(t, "copy", "file")})
	if err == nil || !strings.Contains(err.Error(), "deploy.yml:3:") || !strings.Contains(err.Error(), "unarchive") {
		t.Errorf("err = %v", err)
	}
}

func TestLoadBundleMissing(t *testing.T) {
	if _, err := LoadBundle(t.TempDir(), LoadOptions{Modules: builtin.Registry()}); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestName), []byte("- a\n"), 0o644)
	if _, err := LoadBundle(dir, LoadOptions{Modules: builtin.Registry()}); err == nil || !strings.Contains(err.Error(), ":1:1: the manifest must be a mapping") {
		t.Errorf("err = %v", err)
	}
}

// TestLoadBundleRefusesControlCharsInDest: a newline or any other control
// character in a tracked file's dest is refused at its position: such a
// path would be a different file on the host, or break the scripts and
// the ledger that name it.
func TestLoadBundleRefusesControlCharsInDest(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bin"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, "p.yml"), []byte("- hosts: all\n  tasks: []\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ManifestName), []byte(`name: a
version: "1"
port: 1
files:
  - {src: bin, dest: "/opt/a\nb"}
  - {src: bin, dest: "/opt/\tb"}
  - src: bin
    dest: "/opt/\x7f"
  - {src: bin, dest: "/opt/\u0085b"}
  - {src: bin, dest: "/opt/\rb"}
  - {src: bin, dest: /opt/fine}
playbook: p.yml
`), 0o644)
	_, err := LoadBundle(dir, LoadOptions{Modules: builtin.Registry()})
	if err == nil {
		t.Fatal("control characters in dest were accepted")
	}
	for _, want := range []string{
		`agent.yaml:5:22: dest "/opt/a\nb" holds a control character (U+000A)`,
		`agent.yaml:6:22: dest "/opt/\tb" holds a control character (U+0009)`,
		`agent.yaml:8:11: dest "/opt/\x7f" holds a control character (U+007F)`,
		`agent.yaml:9:22: dest "/opt/\u0085b" holds a control character (U+0085)`,
		`agent.yaml:10:22: dest "/opt/\rb" holds a control character (U+000D)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "/opt/fine") {
		t.Errorf("a good dest was refused:\n%v", err)
	}
}

// FuzzLoadBundle feeds arbitrary manifests to LoadBundle: it must return a
// bundle or an error, never panic, and a bundle it returns is valid.
func FuzzLoadBundle(f *testing.F) {
	for _, dir := range []string{"testdata/good", "testdata/bad"} {
		data, err := os.ReadFile(filepath.Join(dir, ManifestName))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("name: [\nversion: {a: *b}\n"))
	good, _ := filepath.Abs("testdata/good")
	f.Fuzz(func(t *testing.T, manifest []byte) {
		dir := t.TempDir()
		for _, name := range []string{"files", "deploy.yml"} {
			if err := os.Symlink(filepath.Join(good, name), filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, ManifestName), manifest, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := LoadBundle(dir, LoadOptions{Modules: builtin.Registry()})
		if err != nil {
			return
		}
		if b.Name == "" || b.Version == "" || len(b.Files) == 0 || b.Playbook == nil || (b.Port == 0 && b.Health == "") {
			t.Errorf("an invalid bundle loaded: %+v", b)
		}
		for _, f := range b.Files {
			if strings.IndexFunc(f.Dest, unicode.IsControl) >= 0 {
				t.Errorf("a dest with a control character loaded: %q", f.Dest)
			}
		}
	})
}

// restrictedModules is the built-in registry restricted to names.
func restrictedModules(t *testing.T, names ...string) *tasks.Registry {
	t.Helper()
	r, err := builtin.Registry().Restrict(names...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
