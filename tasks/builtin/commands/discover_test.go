package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// TestDecideInterpreter follows ansible-core 2.14's interpreter
// discovery: the distribution's platform Python when the host has it
// (by the nearest version below, or by the family), else the first
// Python found, with Ansible's warnings (none when silent).
func TestDecideInterpreter(t *testing.T) {
	fallback := pythonFallback()
	out := func(found, osr string) string {
		return "PLATFORM\nLinux\nFOUND\n" + found + "ENDFOUND\nOSRELEASE\n" + osr + "\nENDOSRELEASE\n"
	}
	for _, c := range []struct {
		name, mode, out, interp, warning string
	}{
		{"debian 12", "auto", out("/usr/bin/python3.11\n/usr/bin/python3\n", "ID=debian\nVERSION_ID=\"12\"\n"), "/usr/bin/python3", ""},
		{"ubuntu 22.04", "auto", out("/usr/bin/python3\n", "ID=ubuntu\nVERSION_ID=\"22.04\""), "/usr/bin/python3", ""},
		{"rocky by family", "auto", out("/usr/bin/python3\n/usr/libexec/platform-python\n", "ID=\"rocky\"\nVERSION_ID=\"8.9\""), "/usr/libexec/platform-python", ""},
		{"older than the table", "auto", out("/usr/bin/python\n", "ID=ubuntu\nVERSION_ID=12.04"), "/usr/bin/python", ""},
		{"platform python missing", "auto", out("/usr/local/bin/python3.9\n", "ID=debian\nVERSION_ID=11"), "/usr/local/bin/python3.9",
			"Distribution debian 11 on host h should use /usr/bin/python3, but is using /usr/local/bin/python3.9, since the discovered platform python interpreter was not present."},
		{"unknown distribution", "auto", out("/usr/bin/python3.11\n", "ID=alpine\nVERSION_ID=3.19.1"), "/usr/bin/python3.11",
			"Platform linux on host h is using the discovered Python interpreter at /usr/bin/python3.11, but future installation"},
		{"unknown, silent", "auto_silent", out("/usr/bin/python3.11\n", "ID=alpine\nVERSION_ID=3.19.1"), "/usr/bin/python3.11", ""},
		{"legacy", "auto_legacy", out("/usr/bin/python3\n/usr/bin/python\n", "ID=debian\nVERSION_ID=12"), "/usr/bin/python",
			"Distribution debian 12 on host h should use /usr/bin/python3, but is using /usr/bin/python for backward compatibility"},
		{"none found", "auto", out("", "ID=debian\nVERSION_ID=12"), "/usr/bin/python", "No python interpreters found for host h (tried ['python3.11', "},
	} {
		d := decideInterpreter("h", c.mode, fallback, c.out)
		if d.interp != c.interp {
			t.Errorf("%s: %q, want %q", c.name, d.interp, c.interp)
		}
		if w := strings.Join(d.warnings, "\n"); c.warning == "" && w != "" || !strings.Contains(w, c.warning) {
			t.Errorf("%s: warnings %q, want %q", c.name, w, c.warning)
		}
	}
}

// TestDiscoveredFact: a Python module run without
// ansible_python_interpreter discovers one, returns it as the fact
// discovered_interpreter_python, and a later run that has the fact does
// not discover again.
func TestDiscoveredFact(t *testing.T) {
	body := "#!/usr/bin/python\n# WANT_JSON\nimport json, sys\nprint(json.dumps({'exe': sys.executable}))\n"
	env, cc := libraryEnv(t, "which.py", body, nil)
	res, err := libraryModule{}.Run(context.Background(), env, tasks.Args{})
	if err != nil || res.Failed {
		t.Fatalf("%+v %v", res, err)
	}
	facts, _ := res.Data["ansible_facts"].(map[string]any)
	found, _ := facts["discovered_interpreter_python"].(string)
	if !strings.HasPrefix(found, "/") {
		t.Fatalf("no discovered interpreter: %+v", res.Data)
	}
	runs := cc.Runs
	env2, cc2 := libraryEnv(t, "which.py", body, map[string]any{"discovered_interpreter_python": found})
	res, err = libraryModule{}.Run(context.Background(), env2, tasks.Args{})
	if err != nil || res.Failed || res.Data["ansible_facts"] != nil {
		t.Errorf("with the fact: %+v %v", res, err)
	}
	if cc2.Runs != runs-1 {
		t.Errorf("with the fact %d round trips, without %d: want one fewer", cc2.Runs, runs)
	}
}
