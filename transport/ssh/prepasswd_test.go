package ssh

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// passwdScript prints the passwd entry the shell handed it for its user
// (or "none"), then its verdict: say.
func passwdScript(say string) string { return handedScript(":", true, say) }

// TestRunAheadOneGetent: scripts of a write that name the user whose
// passwd entry (or the group whose entry) they read first get it from
// one getent run ahead of them (the entry getent prints for the name
// alone); a name getent does not know has none; runs of scripts of
// different kinds (paths, users, groups) each read with their own
// program, and a lone script of any kind gets nothing.
func TestRunAheadOneGetent(t *testing.T) {
	dir := t.TempDir()
	starts := countStarts(t, "getent", "stat")
	root, err := exec.Command("getent", "passwd", "root").Output()
	if err != nil {
		t.Skip("getent knows no root")
	}
	rootLine := strings.TrimSpace(string(root))
	rootGroup, err := exec.Command("getent", "group", "root").Output()
	if err != nil {
		t.Skip("getent knows no root group")
	}
	groupLine := strings.TrimSpace(string(rootGroup))
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileLine, err := exec.Command("stat", "-c", transport.StatFormat, "--", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	starts()
	pw := func(user string) transport.Cmd {
		return transport.Cmd{Script: passwdScript("changed=0"), Passwd: user, Unchanged: "changed=0", Lines: true, Final: true}
	}
	gr := func(group string) transport.Cmd {
		return transport.Cmd{Script: passwdScript("changed=0"), Group: group, Unchanged: "changed=0", Lines: true, Final: true}
	}
	st := func(path string) transport.Cmd {
		return transport.Cmd{Script: statScript("changed=0"), Stat: path, Unchanged: "changed=0", Lines: true, Final: true}
	}
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"}) // starts the shell
	starts()

	stLine := strings.TrimSpace(string(fileLine))
	for _, c2 := range []struct {
		name   string
		cmds   []transport.Cmd
		lines  []string // what each script got
		starts string   // the programs started, in order
	}{
		{"users", []transport.Cmd{pw("root"), pw("tender-no-such-user"), pw("root")},
			[]string{rootLine, "none", rootLine}, "getent"},
		{"paths then users", []transport.Cmd{st(file), st(file), pw("root"), pw("root")},
			[]string{stLine, stLine, rootLine, rootLine}, "stat getent"},
		{"one of each", []transport.Cmd{st(file), pw("root"), gr("root")},
			[]string{"none", "none", "none"}, ""},
		{"groups, then users", []transport.Cmd{gr("root"), gr("root"), pw("root"), pw("root")},
			[]string{groupLine, groupLine, rootLine, rootLine}, "getent getent"},
		{"a name getent would take for an option", []transport.Cmd{pw("-s"), pw("root")},
			[]string{"none", "none"}, ""},
		{"both named", []transport.Cmd{{Script: passwdScript("changed=0"), Passwd: "root", Stat: file, Unchanged: "changed=0", Lines: true, Final: true}, pw("root")},
			[]string{"none", "none"}, ""},
	} {
		if got := firstLines(t, c, c2.cmds); strings.Join(got, "|") != strings.Join(c2.lines, "|") {
			t.Errorf("%s: scripts got\n%q\nwant\n%q", c2.name, got, c2.lines)
		}
		if s := starts(); s != c2.starts {
			t.Errorf("%s: programs started %q, want %q", c2.name, s, c2.starts)
		}
	}
}
