package shared

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
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

// TestStatTakesHandedLine: _t_stat takes the line the shell handed the
// script for its path (transport.Cmd.Stat) on its first look at that
// path only, and not once the script has changed something; any other
// look runs stat. The format it parses is transport.StatFormat.
func TestStatTakesHandedLine(t *testing.T) {
	if !strings.Contains(AttrFuncs, "stat -c '"+transport.StatFormat+"'") {
		t.Fatalf("_t_stat does not read transport.StatFormat %q", transport.StatFormat)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f 1")
	if err := os.WriteFile(p, []byte("abc"), 0o600); err != nil {
		t.Fatal(err)
	}
	handed := "\n/elsewhere\t1 2 3 4 5 x y regular file\n" + p + "\t755 7 8 9 1 someone staff regular empty file\n"
	show := `printf '%s|%s|%s|%s|%s\n' "$_t_smode" "$_t_suid" "$_t_ssize" "$_t_sowner" "$_t_stype"` + "\n"
	for _, c := range []struct {
		name, script string
		want         []string
	}{
		{"first look, twice", `_t_stat "$P"; ` + show + `_t_stat "$P"; ` + show,
			[]string{"755|7|9|someone|regular empty file", "600|" + uid() + "|3|"}},
		{"after a change", `_t_changed=1; _t_stat "$P"; ` + show, []string{"600|" + uid() + "|3|"}},
		{"another path first", `_t_stat /; _t_stat "$P"; ` + show, []string{"755|7|9|someone|regular empty file"}},
	} {
		for _, sh := range shells() {
			cmd := exec.Command(sh[0], append(sh[1:], "-c", AttrFuncs+c.script)...)
			cmd.Env = append(os.Environ(), "P="+p, "__tender_sp="+p, "__tender_sf="+handed)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s, %s: %v", sh[0], c.name, err)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(lines) != len(c.want) {
				t.Fatalf("%s, %s: %q", sh[0], c.name, out)
			}
			for i, w := range c.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("%s, %s, look %d: %q, want %q...", sh[0], c.name, i+1, lines[i], w)
				}
			}
		}
	}
}

func uid() string { return strconv.Itoa(os.Getuid()) }

// shells are the shells here a host's /bin/sh may be: sh, and bash
// (posix) and busybox where installed.
func shells() [][]string {
	out := [][]string{{"sh"}}
	if p, err := exec.LookPath("bash"); err == nil {
		out = append(out, []string{p, "--posix"})
	}
	if p, err := exec.LookPath("busybox"); err == nil {
		out = append(out, []string{p, "sh"})
	}
	return out
}
