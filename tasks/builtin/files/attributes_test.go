package files

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// flagsOf is the chattr flags lsattr shows for p, without its dashes; the
// test is skipped where lsattr cannot read them or chattr cannot set
// them (not root, a file system without flags).
func flagsOf(t *testing.T, p string) string {
	t.Helper()
	out, err := exec.Command("lsattr", "-d", p).Output()
	if err != nil {
		t.Skipf("lsattr %s: %v", p, err)
	}
	return strings.ReplaceAll(strings.Fields(string(out))[0], "-", "")
}

func canChattr(t *testing.T, dir string) {
	t.Helper()
	p := filepath.Join(dir, "probe")
	os.WriteFile(p, nil, 0o644)
	defer os.Remove(p)
	if os.Geteuid() != 0 || exec.Command("chattr", "+A", p).Run() != nil {
		t.Skip("chattr needs root and a file system with flags")
	}
	flagsOf(t, p)
}

// TestAttributesSet: attributes sets chattr flags as Ansible does (+ adds,
// - removes, a bare list sets them all), after mode, owner and group;
// check mode changes nothing; a second run changes nothing; the diff
// shows them.
func TestAttributesSet(t *testing.T) {
	dir := t.TempDir()
	canChattr(t, dir)
	env, _ := modtest.TestEnv(t, dir, nil)
	f := filepath.Join(dir, "f")
	os.WriteFile(f, []byte("x\n"), 0o644)
	t.Cleanup(func() { exec.Command("chattr", "-i", f).Run() })
	env.Diff = true
	res := twice(t, env, "file", tasks.Args{"path": f, "attributes": "+i", "mode": "0600"}, func() bool { return !strings.Contains(flagsOf(t, f), "i") })
	if !strings.Contains(flagsOf(t, f), "i") {
		t.Fatalf("+i did not set i: %s", flagsOf(t, f))
	}
	if st, _ := os.Stat(f); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v: chmod must come before the immutable flag", st.Mode())
	}
	diff, _ := res.Data["diff"].(map[string]any)
	if a, _ := diff["after"].(map[string]any); a == nil || a["attributes"] != "+i" {
		t.Errorf("diff %v", res.Data["diff"])
	}
	twice(t, env, "file", tasks.Args{"path": f, "attributes": "-i"}, func() bool { return strings.Contains(flagsOf(t, f), "i") })
	if strings.Contains(flagsOf(t, f), "i") {
		t.Fatalf("-i left i: %s", flagsOf(t, f))
	}
	// The text modules and copy write, then set the flags.
	l := filepath.Join(dir, "l")
	twice(t, env, "lineinfile", tasks.Args{"path": l, "line": "a", "create": true, "attributes": "+A"}, func() bool { _, err := os.Stat(l); return err != nil })
	if !strings.Contains(flagsOf(t, l), "A") || modtest.ReadFile(t, l) != "a\n" {
		t.Errorf("lineinfile: %s %q", flagsOf(t, l), modtest.ReadFile(t, l))
	}
	c := filepath.Join(dir, "c")
	twice(t, env, "copy", tasks.Args{"dest": c, "content": "c\n", "attributes": "+A"}, func() bool { _, err := os.Stat(c); return err != nil })
	if !strings.Contains(flagsOf(t, c), "A") {
		t.Errorf("copy: %s", flagsOf(t, c))
	}
}

// TestAttributesFail: where the flags cannot be set (a /proc file), the
// task fails as Ansible's: "chattr failed", with chattr's error in
// details.
func TestAttributesFail(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	if _, err := exec.LookPath("chattr"); err != nil {
		t.Skip("no chattr")
	}
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	res := modtest.RunMod(t, env, "file", tasks.Args{"path": "/proc/version", "attributes": "+i"})
	d, _ := res.Data["details"].(string)
	if !res.Failed || res.Msg != "chattr failed" || !strings.HasPrefix(d, "Error while setting attributes: ") || res.Data["path"] != "/proc/version" {
		t.Fatalf("%+v", res)
	}
}
