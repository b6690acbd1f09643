package shared

import (
	"os/exec"
	"strings"
	"testing"
)

// _t_tail prints the markers and the commands' output when a command
// printed anything, and nothing at all when none did (or none ran), so
// that a no-op's answer is its verdict alone; Tailed reads both.
func TestTailOnlyWithOutput(t *testing.T) {
	for _, c := range []struct {
		name, run, out, errOut string
		marked                 bool
	}{
		{"none ran", "", "", "", false},
		{"silent", "_t_run true", "", "", false},
		{"stdout", "_t_run printf 'a\\nb\\n'", "a\nb\n", "", true},
		{"stderr", "_t_run sh -c 'echo e >&2'", "", "e\n", true},
	} {
		script := SysFuncsLazy + c.run + "\necho changed=1\n_t_tail\n"
		out, err := exec.Command("sh", "-c", script).Output()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if marked := strings.Contains(string(out), OutMark); marked != c.marked {
			t.Errorf("%s: markers printed %v in %q", c.name, marked, out)
		}
		v, o, e := Tailed(out)
		if v["changed"] != "1" || o != c.out || e != c.errOut {
			t.Errorf("%s: %v %q %q, want %q %q", c.name, v, o, e, c.out, c.errOut)
		}
	}
}
