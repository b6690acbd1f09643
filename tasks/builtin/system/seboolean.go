package system

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// sebooleanModule is ansible.posix's seboolean: it sets an SELinux
// boolean's running value, or with persistent its value in the policy
// store (and the running one with it), without Python's libselinux or
// libsemanage on the host. It reads selinuxfs for the running value and
// the store's kernel policy for the persistent one, writes selinuxfs
// itself and runs setsebool -N -P for a persistent change (the store
// rewritten, the policy not reloaded, as the module commits it). One
// round trip.
type sebooleanModule struct{}

var _ tasks.Module = sebooleanModule{}

var sebooleanArgs = &tasks.Spec{
	Module: "seboolean",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "persistent", Kind: tasks.Bool, Default: false},
		{Name: "state", Kind: tasks.Bool, Required: true},
		{Name: "ignore_selinux_state", Kind: tasks.Bool, Default: false},
	},
}

// Spec returns seboolean's parameters.
func (sebooleanModule) Spec() *tasks.Spec { return sebooleanArgs }

// sebooleanScript reads and sets the boolean $name to $want (1 or 0),
// in the store when $persistent. It prints sub= when the policy renames
// the boolean, then changed=, or err= naming what failed (with rc= and
// setsebool's output when it did).
//
//go:embed seboolean.sh
var sebooleanScript string

// sebooleanErrors are the module's messages for the script's err= codes;
// %[1]s is the boolean's name (after the policy's renaming), %[2]d the
// value asked.
var sebooleanErrors = map[string]string{
	"disabled":     "SELinux is disabled on this host.",
	"names":        "Failed to get list of boolean names",
	"notexist":     "SELinux boolean %[1]s does not exist.",
	"state":        "Failed to determine current state for boolean %[1]s",
	"set":          "Failed to set boolean %[1]s to %[2]d",
	"commit":       "Failed to commit pending boolean %[1]s value",
	"unmanaged":    "Cannot set persistent booleans without managed policy",
	"root":         "Cannot set persistent booleans; please try as root",
	"transaction":  "Failed to begin semanage transaction",
	"notdefined":   "SELinux boolean %[1]s is not defined in persistent policy",
	"commit_store": "Failed to commit changes to semanage",
	"nosetsebool":  "setsebool is not installed on the host: a persistent boolean needs it (Debian's selinux-utils, Red Hat's policycoreutils)",
}

// Run sets the boolean.
func (sebooleanModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	return runSeboolean(ctx, env, args, "")
}

// runSeboolean sets the boolean on the host whose files are under root
// ("" but in tests, which fake selinuxfs and the policy store).
func runSeboolean(ctx context.Context, env *tasks.Env, args tasks.Args, root string) (tasks.Result, error) {
	a, err := sebooleanArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, persistent, state := a.Str("name"), a.Bool("persistent"), a.Bool("state")
	want := 0
	if state {
		want = 1
	}
	script := shared.SysFuncs + shared.ShAssign([][2]string{{"name", name}, {"want", strconv.Itoa(want)},
		{"persistent", shared.BoolFlag(persistent)}, {"ignore", shared.BoolFlag(a.Bool("ignore_selinux_state"))},
		{"check", shared.BoolFlag(env.Check)}, {"root", root}}) + sebooleanScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	if code := v["err"]; code != "" {
		msg, ok := sebooleanErrors[code]
		if !ok {
			msg = "seboolean: unknown failure " + code
		}
		if sub := v["sub"]; sub != "" {
			name = sub
		}
		if strings.Contains(msg, "%[") {
			msg = fmt.Sprintf(msg, name, want)
		}
		data := map[string]any{}
		if code == "commit_store" {
			rc, _ := strconv.Atoi(v["rc"])
			data["rc"] = rc
			shared.OutputData(data, out, errOut)
			if e := strings.TrimSpace(errOut); e != "" {
				msg += ": " + e
			}
		}
		return tasks.Result{Failed: true, Msg: msg, Data: data}, nil
	}
	if res.ExitCode != 0 || v["changed"] == "" {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(res), Data: map[string]any{}}, nil
	}
	return tasks.Result{Changed: v["changed"] == "1",
		Data: map[string]any{"name": a.Str("name"), "persistent": persistent, "state": state}}, nil
}
