package shared

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSELinuxStateKeptInShellDir: in the persistent shell ($__tender_d
// set) _t_seon asks selinuxenabled once and keeps the answer as a file
// there; later scripts (new processes, as each frame's subshell is) take
// it from the file. Without the directory every script asks again.
func TestSELinuxStateKeptInShellDir(t *testing.T) {
	for _, c := range []struct {
		name    string
		enabled bool
		shell   bool // $__tender_d set
	}{{"on, shell", true, true}, {"off, shell", false, true}, {"on, no shell", true, false}} {
		dir := t.TempDir()
		bin := filepath.Join(dir, "bin")
		log := filepath.Join(dir, "starts")
		if err := os.Mkdir(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		rc := "1"
		if c.enabled {
			rc = "0"
		}
		fake := "#!/bin/sh\necho x >>" + log + "\nexit " + rc + "\n"
		if err := os.WriteFile(filepath.Join(bin, "selinuxenabled"), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
		env := append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
		if c.shell {
			env = append(env, "__tender_d="+dir)
		}
		for i := range 3 {
			cmd := exec.Command("sh", "-c", AttrFuncs+"if _t_seon; then echo on; else echo off; fi\n")
			cmd.Env = env
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			want := map[bool]string{true: "on", false: "off"}[c.enabled]
			if got := strings.TrimSpace(string(out)); got != want {
				t.Errorf("%s, script %d: %q, want %q", c.name, i, got, want)
			}
		}
		b, _ := os.ReadFile(log)
		starts := strings.Count(string(b), "x")
		want := 3
		if c.shell {
			want = 1
		}
		if starts != want {
			t.Errorf("%s: selinuxenabled started %d times, want %d", c.name, starts, want)
		}
	}
}
