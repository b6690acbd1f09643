package builtin

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// exitTrap matches a trap statement on EXIT.
var exitTrap = regexp.MustCompile(`(?m)^\s*trap .* EXIT\s*$`)

// The Lib pieces of every module (transport.Cmd.Lib) live for a whole
// connection once a shell has defined them, so each must only define,
// and no name may mean two things.
func TestLibPiecesOnlyDefineDistinctNames(t *testing.T) {
	pieces := shared.LibPieces()
	if len(pieces) < 6 {
		t.Fatalf("%d Lib pieces registered, want the file, stat and copy modules' at least", len(pieces))
	}
	owner := map[string]string{}
	seen := map[string]bool{}
	shells := []string{"sh"}
	for _, sh := range []string{"dash", "bash", "busybox"} {
		if _, err := exec.LookPath(sh); err == nil {
			shells = append(shells, sh)
		}
	}
	for _, p := range pieces {
		if seen[p.Text] {
			continue
		}
		seen[p.Text] = true
		first, _, _ := strings.Cut(p.Text, "\n")
		if !strings.HasSuffix(p.Text, "\n") {
			t.Errorf("piece %q does not end with a newline", first)
		}
		if len(p.Names) == 0 {
			t.Errorf("piece %q defines no function", first)
		}
		// A piece that sets an EXIT trap prints ${__tender_cs-} in it:
		// a capture frame's shell (transport.Cmd.Lines) then still finds
		// the end of the script's output, trailing newlines and all.
		if exitTrap.MatchString(p.Text) && !strings.Contains(p.Text, `printf %s "${__tender_cs-}"`) {
			t.Errorf("piece %q sets an EXIT trap that does not print ${__tender_cs-}", first)
		}
		for _, n := range p.Names {
			if o, ok := owner[n]; ok && o != p.Text {
				t.Errorf("%s is defined by two Lib pieces", n)
			}
			owner[n] = p.Text
		}
		// Defining it succeeds and prints nothing, in every shell here;
		// it sets no trap and makes no file (a temporary directory of
		// the script's own belongs in the script).
		for _, sh := range shells {
			tmp := t.TempDir()
			args := []string{"-c", "cd " + tmp + " || exit 9\n" + p.Text + "trap\necho defined\n"}
			if sh == "busybox" {
				args = append([]string{"sh"}, args...)
			}
			cmd := exec.Command(sh, args...)
			cmd.Env = append(cmd.Environ(), "TMPDIR="+tmp)
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != "defined\n" {
				t.Errorf("%s: piece %q: %v, output %q", sh, first, err, out)
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("%s: piece %q made %s", sh, first, left[0].Name())
			}
		}
	}
	for _, name := range []string{"_t_file_main", "_t_stat_main", "_t_copy_main", "_t_attrs", "_t_exists"} {
		if owner[name] == "" {
			t.Errorf("no Lib piece defines %s", name)
		}
	}
}
