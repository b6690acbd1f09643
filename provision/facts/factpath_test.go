package facts

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// expandEnv is the environment TestFactPathExpansion runs under.
var expandEnv = []string{"HOME=/home/t/", "X=/x", "EMPTY=", "ODD=a b$HOME", "T=~/t", "PATH=/usr/bin:/bin:/usr/sbin:/sbin"}

// TestFactPathExpansion runs the sh ScriptFor puts before the fact script
// under each shell here and compares what it makes of fact_path with
// Python's os.path.expanduser(os.path.expandvars(p)) under the same
// environment (recorded with python3 3.11: env -i HOME=/home/t/ X=/x
// EMPTY= 'ODD=a b$HOME' T='~/t' python3 -c …).
func TestFactPathExpansion(t *testing.T) {
	want := map[string]string{
		"/etc/ansible/facts.d": "/etc/ansible/facts.d",
		"":                     "",
		"~":                    "/home/t",
		"~/f":                  "/home/t/f",
		"~root/f":              "/root/f",
		"~nosuchuser/f":        "~nosuchuser/f",
		"$X/f":                 "/x/f",
		"${X}/f":               "/x/f",
		"$U/f":                 "$U/f",
		"${U}/f":               "${U}/f",
		"$X$X":                 "/x/x",
		"$EMPTY/f":             "/f",
		"$ODD":                 "a b$HOME",
		"${}x":                 "${}x",
		"$1X/f":                "$1X/f",
		"${a b}":               "${a b}",
		"$":                    "$",
		"a$":                   "a$",
		"~$X":                  "/home/t/x",
		"$T/f":                 "/home/t/t/f",
		"$HOME":                "/home/t/",
		"/a'b\"c d/$X":         "/a'b\"c d//x",
		"/tmp/f//":             "/tmp/f//",
		"${X":                  "${X",
		"$X_/y":                "$X_/y",
		"~//":                  "/home/t//",
		"~root":                "/root",
	}
	if _, err := user.Lookup("root"); err != nil {
		t.Skip("no root user here")
	}
	for _, sh := range shellsHere(t) {
		for in, w := range want {
			if got := runExpansion(t, sh, in, expandEnv); got != w {
				t.Errorf("%s: fact_path %q: got %q, want %q", sh, in, got, w)
			}
		}
		// Without HOME, "~" is the user's passwd entry's directory.
		u, err := user.Current()
		if err != nil {
			continue
		}
		if got := runExpansion(t, sh, "~/f", []string{"PATH=/usr/bin:/bin"}); got != strings.TrimRight(u.HomeDir, "/")+"/f" {
			t.Errorf("%s: ~/f without HOME: %q, home %q", sh, got, u.HomeDir)
		}
	}
}

// shellsHere are the POSIX shells this machine has.
func shellsHere(t *testing.T) []string {
	var out []string
	for _, sh := range []string{"dash", "bash", "busybox"} {
		if p, err := exec.LookPath(sh); err == nil {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Skip("no shell")
	}
	return out
}

func runExpansion(t *testing.T, sh, factPath string, env []string) string {
	t.Helper()
	argv := []string{sh, "-c", factPathShell(factPath) + `printf '%s' "$fact_path"`}
	if strings.HasSuffix(sh, "busybox") {
		argv = []string{sh, "sh", "-c", argv[2]}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %q: %v", sh, factPath, err)
	}
	return string(out)
}

// TestScriptFor runs the fact script here with fact_path set to a
// directory of local facts, and checks ansible_local reads it, and that
// the default is Script itself.
func TestScriptFor(t *testing.T) {
	if ScriptFor(DefaultFactPath) != Script {
		t.Error("ScriptFor(DefaultFactPath) is not Script")
	}
	if !strings.Contains(Script, factPathLine) {
		t.Fatal("facts.sh has no fact_path line for ScriptFor to replace")
	}
	dir := filepath.Join(t.TempDir(), "my facts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.fact"), []byte(`{"k": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.fact"), []byte("#!/bin/sh\necho '[s]'; echo 'x = y'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		env  string
		want map[string]any
	}{
		{dir, "", map[string]any{"a": map[string]any{"k": 1}, "b": map[string]any{"s": map[string]any{"x": "y"}}}},
		{"$TENDER_FACTS_DIR/", "TENDER_FACTS_DIR=" + dir, map[string]any{"a": map[string]any{"k": 1}, "b": map[string]any{"s": map[string]any{"x": "y"}}}},
		{"", "", map[string]any{}},
		{filepath.Join(dir, "none"), "", map[string]any{}},
	} {
		cmd := exec.Command("sh", "-c", ScriptFor(c.path))
		cmd.Env = append(os.Environ(), c.env)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v", c.path, err)
		}
		f, err := Parse(out)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f["local"], c.want) {
			t.Errorf("fact_path %q: local %v, want %v", c.path, f["local"], c.want)
		}
	}
}

func TestTimeout(t *testing.T) {
	for in, want := range map[int]time.Duration{0: 20 * time.Second, -3: 20 * time.Second, 1: 11 * time.Second, 30: 40 * time.Second} {
		if got := Timeout(in); got != want {
			t.Errorf("Timeout(%d) = %v, want %v", in, got, want)
		}
	}
}
