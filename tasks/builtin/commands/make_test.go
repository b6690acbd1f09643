package commands

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// makeVerdict is a verdict of make.sh with the program, chdir and the
// expanded arguments.
func makeVerdict(kv map[string]string, args ...string) shared.Verdict {
	v := shared.Verdict{"make": hx("/usr/bin/gmake"), "chdir": hx("/srv/mk"), "argc": "0"}
	for i, a := range args {
		v["a"+string(rune('0'+i))] = hx(a)
	}
	v["argc"] = string(rune('0' + len(args)))
	for k, x := range kv {
		v[k] = x
	}
	return v
}

// TestMakeWords checks the arguments built from the options, the
// parameters in the order given and Python's str() of their values.
func TestMakeWords(t *testing.T) {
	params := pydict.Record(map[string]any{"Z": "a b", "A": true, "N": 1}, []string{"Z", "A", "N"})
	j, err := newMakeJob(tasks.Args{"chdir": "/srv", "target": "all", "jobs": 3, "file": "x.mk", "params": params})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-j", "3", "-f", "F", "all", "Z=a b", "A=True", "N=1"}
	if got := j.words("F"); !reflect.DeepEqual(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
	j, _ = newMakeJob(tasks.Args{"chdir": "/srv"})
	if got := j.words("F"); len(got) != 0 {
		t.Errorf("no options: words %q", got)
	}
}

// TestMakeResult checks the results made from the script's verdicts.
func TestMakeResult(t *testing.T) {
	job := func(a tasks.Args) makeJob {
		j, err := newMakeJob(a)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	plain := job(tasks.Args{"chdir": "/srv/mk"})
	target := job(tasks.Args{"chdir": "/srv/mk", "target": "sp ace", "params": map[string]any{"H": "$HOME"}, "jobs": 2})
	for _, c := range []struct {
		name            string
		j               makeJob
		v               shared.Verdict
		out, e          string
		check           bool
		changed, failed bool
		data            map[string]any
	}{
		{"up to date", plain, makeVerdict(map[string]string{"qrc": "0"}), "", "", false, false, false,
			map[string]any{"chdir": "/srv/mk", "command": "/usr/bin/gmake ''", "target": nil, "params": nil, "file": nil, "jobs": nil,
				"stdout": "", "stdout_lines": []any{}, "stderr": "", "stderr_lines": []any{}}},
		{"made", target, makeVerdict(map[string]string{"qrc": "1", "rc": "0"}, "-j", "2", "sp ace", "H=/root"), "built\r\n\n", "warn\n", false, true, false,
			map[string]any{"chdir": "/srv/mk", "command": "/usr/bin/gmake -j 2 'sp ace' 'H=$HOME'", "target": "sp ace",
				"params": map[string]any{"H": "$HOME"}, "file": nil, "jobs": 2,
				"stdout": "built", "stdout_lines": []any{"built"}, "stderr": "warn", "stderr_lines": []any{"warn"}}},
		{"check", plain, makeVerdict(map[string]string{"qrc": "2"}), "", "gmake: *** no\n", true, true, false,
			map[string]any{"chdir": "/srv/mk", "command": "/usr/bin/gmake ''", "target": nil, "params": nil, "file": nil, "jobs": nil,
				"stdout": "", "stdout_lines": []any{}, "stderr": "gmake: *** no", "stderr_lines": []any{"gmake: *** no"}}},
		{"fails", target, makeVerdict(map[string]string{"qrc": "1", "rc": "2"}, "-j", "2", "sp ace", "H=/root"), "x\n", "oops\n", false, false, true,
			map[string]any{"cmd": "/usr/bin/gmake -j 2 'sp ace' H=/root", "rc": 2, "msg": "oops",
				"stdout": "x\n", "stdout_lines": []any{"x"}, "stderr": "oops\n", "stderr_lines": []any{"oops"}}},
		{"no program", plain, makeVerdict(map[string]string{"noexec": "2"}), "", "", false, false, true,
			map[string]any{"cmd": "/usr/bin/gmake -q", "rc": 2,
				"stdout": "", "stdout_lines": []any{}, "stderr": "", "stderr_lines": []any{}}},
	} {
		r := c.j.result(c.v, c.out, c.e, c.check)
		if r.Changed != c.changed || r.Failed != c.failed {
			t.Errorf("%s: changed %v failed %v", c.name, r.Changed, r.Failed)
		}
		if !reflect.DeepEqual(r.Data, c.data) {
			t.Errorf("%s: data %#v, want %#v", c.name, r.Data, c.data)
		}
	}
	r := plain.result(makeVerdict(map[string]string{"noexec": "13"}), "", "", false)
	if r.Msg != "[Errno 13] Permission denied: b'/usr/bin/gmake'" {
		t.Errorf("noexec 13: %q", r.Msg)
	}
	r = plain.result(shared.Verdict{"nomake": hx("/bin:/sbin")}, "", "", false)
	if r.Msg != `Failed to find required executable "make" in paths: /bin:/sbin` {
		t.Errorf("nomake: %q", r.Msg)
	}
}

// TestMakeScript checks that every word is quoted, expanded on the host
// as run_command expands it.
func TestMakeScript(t *testing.T) {
	j, err := newMakeJob(tasks.Args{"chdir": "~/src", "target": "$(id)", "params": map[string]any{"P": "$HOME;x"}})
	if err != nil {
		t.Fatal(err)
	}
	s := j.script(false)
	for _, want := range []string{`chdir="$HOME"/src`, `set -- '$(id)' P="${HOME-\$HOME}"';x'`, "make=''\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q", want)
		}
	}
}
