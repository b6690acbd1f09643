package ssh

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// statScript prints the line the shell handed it for its path (or
// "none"), then its verdict: say, as the module's own "changed=" line.
func statScript(say string) string { return handedScript("\t", false, say) }

// handedScript prints the line of $__tender_sf the shell handed it for
// its key, $__tender_sp (sep follows the key in the line; withKey: the
// key is printed back before the rest of the line), or "none"; then
// say.
func handedScript(sep string, withKey bool, say string) string {
	back := ""
	if withKey {
		back = "$__tender_sp" + sep
	}
	return `l=none
case ${__tender_sp-} in
?*) case ${__tender_sf-} in *"
$__tender_sp` + sep + `"*) l=${__tender_sf#*"
$__tender_sp` + sep + `"}; l=` + back + `${l%%"
"*} ;; esac ;;
esac
printf '%s\n' "$l" ` + transport.Quote(say) + "\n"
}

// countStarts puts in front of PATH a stand-in for each of progs that
// notes its start and runs the real one; the function returned gives
// the programs started since its last call, in order.
func countStarts(t *testing.T, progs ...string) func() string {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "starts.log")
	for _, prog := range progs {
		real, err := exec.LookPath(prog)
		if err != nil {
			t.Skip("no " + prog)
		}
		wrap := "#!/bin/sh\necho " + prog + " >>" + log + "\nexec " + real + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(dir, prog), []byte(wrap), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	return func() string {
		b, _ := os.ReadFile(log)
		os.Remove(log)
		return strings.Join(strings.Fields(string(b)), " ")
	}
}

// TestRunAheadOneStat: scripts of a write that name the path they read
// first get its line from one stat program run ahead of
// them (the same line stat prints for it alone), wherever in the write
// two or more such scripts follow each other; a path stat cannot read
// has none; once a script prints no Unchanged line the scripts after it
// get none; a script that names no path ends the run of them; one whose
// lines the shell reads up to a line it names (LinesUntil) takes part,
// and once it prints that line the scripts after it get none; and
// nothing is left for the next write.
func TestRunAheadOneStat(t *testing.T) {
	dir := t.TempDir()
	real, err := exec.LookPath("stat")
	if err != nil {
		t.Skip("no stat")
	}
	counted := countStarts(t, "stat")
	starts := func() int { return len(strings.Fields(counted())) }
	var paths []string
	for _, n := range []string{"a b", "c*", "d"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte(n), 0o640); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	want := func(p string) string {
		out, err := exec.Command(real, "-c", transport.StatFormat, "--", p).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	cmd := func(path, say string) transport.Cmd {
		return transport.Cmd{Script: statScript(say), Stat: path, Unchanged: "changed=", Lines: true, Final: true}
	}
	plain := transport.Cmd{Script: statScript("changed="), Lines: true, Final: true}
	// until's script promises lines up to --content-- (LinesUntil);
	// with more, it prints that line and more after it
	until := func(path, more string) transport.Cmd {
		script := statScript("changed=")
		if more != "" {
			script += "printf '%s\\n' --content-- " + transport.Quote(more) + "\n"
		}
		return transport.Cmd{Script: script, Stat: path, Unchanged: "changed=", LinesUntil: "--content--", Final: true}
	}
	f := newFixture(t, sshtest.Options{})
	c := f.connect(t)
	mustRun(t, c, transport.Cmd{Script: "true"}) // starts the shell
	starts()

	for _, c2 := range []struct {
		name  string
		cmds  []transport.Cmd
		lines []string // what each script got
		stats int
	}{
		{"all unchanged", []transport.Cmd{cmd(paths[0], "changed="), cmd(paths[1], "changed="), cmd(filepath.Join(dir, "none"), "changed="), cmd(paths[0], "changed=")},
			[]string{want(paths[0]), want(paths[1]), "none", want(paths[0])}, 1},
		{"a change", []transport.Cmd{cmd(paths[0], "changed="), cmd(paths[1], "changed=1"), cmd(paths[2], "changed=")},
			[]string{want(paths[0]), want(paths[1]), "none"}, 1},
		{"no path", []transport.Cmd{cmd(paths[0], "changed="), plain, cmd(paths[2], "changed=")},
			[]string{"none", "none", "none"}, 0},
		{"relative", []transport.Cmd{cmd("d", "changed="), cmd(paths[2], "changed=")},
			[]string{"none", "none"}, 0},
		{"a run after another script", []transport.Cmd{plain, cmd(paths[0], "changed="), cmd(paths[1], "changed=")},
			[]string{"none", want(paths[0]), want(paths[1])}, 1},
		{"two runs", []transport.Cmd{cmd(paths[0], "changed="), cmd(paths[1], "changed="), plain, cmd(paths[1], "changed="), cmd(paths[2], "changed=")},
			[]string{want(paths[0]), want(paths[1]), "none", want(paths[1]), want(paths[2])}, 2},
		{"lines up to a line", []transport.Cmd{until(paths[0], ""), cmd(paths[1], "changed="), until(paths[2], "")},
			[]string{want(paths[0]), want(paths[1]), want(paths[2])}, 1},
		{"past that line", []transport.Cmd{until(paths[0], "changed="), cmd(paths[1], "changed=")},
			[]string{want(paths[0]), "none"}, 1},
	} {
		if got := firstLines(t, c, c2.cmds); strings.Join(got, "|") != strings.Join(c2.lines, "|") {
			t.Errorf("%s: scripts got\n%q\nwant\n%q", c2.name, got, c2.lines)
		}
		if n := starts(); n != c2.stats {
			t.Errorf("%s: stat started %d times, want %d", c2.name, n, c2.stats)
		}
		after := mustRun(t, c, transport.Cmd{Script: statScript("x"), Lines: true})
		if line := strings.SplitN(string(after.Stdout), "\n", 2)[0]; line != "none" {
			t.Errorf("%s: the next Run found %q", c2.name, line)
		}
	}
}

// TestPrestatFramesInEveryShell: the statements of a run of frames that
// share one stat (prestatText, prestatFrame, __tender_sfk) work alike in
// every shell a host's /bin/sh may be.
func TestPrestatFramesInEveryShell(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	line, err := exec.Command("stat", "-c", transport.StatFormat, "--", p).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(line))
	says := []string{"changed=", "changed=1", "changed="}
	for _, argv := range localShells() {
		var f []byte
		for i, say := range says {
			st := prestatStep{probe: probe{probeStat, p}, last: i == len(says)-1}
			if i == 0 {
				st.start = prestatText(probeStat, []string{p}, false)
			}
			cmd := "( eval " + transport.Quote(statScript(say)) + " )"
			f = append(f, prestatFrame(subshellFrame(fmt.Sprintf("__P%d_", i), cmd, " l", false, false), st, "changed=")...)
		}
		f = append(f, subshellFrame("__P9_", "( eval "+transport.Quote(statScript("x"))+" )", " l", false, false)...)
		sh := runFrames(t, argv, true, f)
		for i, w := range []string{want, want, "none", "none"} {
			b := fmt.Sprintf("__P%d_", i)
			if i == 3 {
				b = "__P9_"
			}
			res, _, err := sh.answer(b, 1<<20)
			if err != nil {
				t.Fatalf("%s frame %d: %v", argv[0], i, err)
			}
			if got := strings.SplitN(string(res.Stdout), "\n", 2)[0]; got != w {
				t.Errorf("%s frame %d: got %q, want %q", argv[0], i, got, w)
			}
		}
	}
}

// firstLines runs cmds in one RunAhead and gives each script's first
// line of output.
func firstLines(t *testing.T, c *Conn, cmds []transport.Cmd) []string {
	t.Helper()
	res, pend := runAhead(t, c, cmds[0], cmds[1:]...)
	got := []string{strings.SplitN(string(res.Stdout), "\n", 2)[0]}
	for i, p := range pend {
		r, ran := wait(t, p)
		if !ran {
			t.Fatalf("script %d did not run", i+2)
		}
		got = append(got, strings.SplitN(string(r.Stdout), "\n", 2)[0])
	}
	return got
}
