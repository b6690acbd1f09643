package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigDumpAgainstAnsible replays the scenarios of
// testdata/configdump (recorded from ansible-config 2.14 by gen.sh) and
// compares `tender config dump` and `ansible-config dump` (the drop-in
// name) with what ansible-config printed, line for line.
func TestConfigDumpAgainstAnsible(t *testing.T) {
	data, err := filepath.Abs("testdata/configdump")
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range os.Environ() {
		if k, _, _ := strings.Cut(env, "="); strings.HasPrefix(k, "ANSIBLE_") || k == "NO_COLOR" {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	for _, s := range []string{"nocfg", "cfg", "cfgenv"} {
		for _, mode := range []string{"only-changed", "all"} {
			t.Run(s+"/"+mode, func(t *testing.T) {
				root := t.TempDir()
				for _, d := range []string{"home", "cwd"} {
					os.Mkdir(filepath.Join(root, d), 0o755)
				}
				if b, err := os.ReadFile(filepath.Join(data, s+".cfg")); err == nil {
					os.WriteFile(filepath.Join(root, "cwd", "ansible.cfg"), b, 0o644)
				}
				t.Setenv("HOME", filepath.Join(root, "home"))
				if b, err := os.ReadFile(filepath.Join(data, s+".env")); err == nil {
					for _, l := range strings.Fields(string(b)) {
						k, v, _ := strings.Cut(l, "=")
						t.Setenv(k, strings.ReplaceAll(v, "@ROOT@", root))
					}
				}
				t.Chdir(filepath.Join(root, "cwd"))
				want := string(mustRead(t, filepath.Join(data, s+"."+mode+".txt")))
				args := []string{"tender", "config", "dump"}
				if s == "cfgenv" {
					args = []string{"/usr/local/bin/ansible-config", "dump"}
				}
				if mode == "only-changed" {
					args = append(args, "--only-changed")
				}
				code, out, e := runAs(t, args...)
				if code != 0 {
					t.Fatalf("%v: %d %s", args, code, e)
				}
				got := strings.ReplaceAll(out, root, "@ROOT@")
				if got != want {
					gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
					for i := 0; i < len(gl) || i < len(wl); i++ {
						g, w := "", ""
						if i < len(gl) {
							g = gl[i]
						}
						if i < len(wl) {
							w = wl[i]
						}
						if g != w {
							t.Fatalf("%v: line %d:\n got  %s\n want %s", args, i+1, g, w)
						}
					}
				}
			})
		}
	}
}

func TestConfigViewAndRefusals(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "my.cfg")
	os.WriteFile(cfg, []byte("[defaults]\nforks = 3\n"), 0o644)
	t.Setenv("ANSIBLE_CONFIG", cfg)
	if code, out, e := runCLI(t, "config", "view"); code != 0 || out != "[defaults]\nforks = 3\n" {
		t.Errorf("view: %d %q %s", code, out, e)
	}
	if code, _, e := runCLI(t, "config", "list"); code == 0 || !strings.Contains(e, "config list is not supported") {
		t.Errorf("list: %d %s", code, e)
	}
}
