package commands

import (
	_ "embed"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

//go:embed gate.sh
var gateBody string

// gateScript returns the shell functions and the gate (gate.sh) that
// command and script share: the task's chdir (when withChdir), creates
// and removes, tested with test (_t_glob or _t_exists), and check mode.
// Paths reach the script as variables, expanded as ShPath expands them.
func gateScript(a tasks.Values, test string, withChdir, check bool) string {
	var b strings.Builder
	b.WriteString(shared.ShFuncs)
	b.WriteString(shared.ShAssign([][2]string{{"_t_test", test}, {"_t_check", shared.BoolFlag(check)},
		{"_t_has_chdir", ""}, {"_t_has_creates", ""}, {"_t_has_removes", ""}}))
	for _, k := range []string{"chdir", "creates", "removes"} {
		if a.Has(k) && (k != "chdir" || withChdir) {
			b.WriteString("_t_has_" + k + "=1\n_t_" + k + "=" + shared.ShPath(a.Str(k)) + "\n")
		}
	}
	b.WriteString(gateBody)
	return b.String()
}
