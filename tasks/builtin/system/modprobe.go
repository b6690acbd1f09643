package system

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// modprobeModule loads or unloads a kernel module as community.general's
// modprobe module does (without persistent=). Whether the module is
// loaded is read from /proc/modules and the kernel's modules.builtin; a
// host without that list (a container, whose /lib/modules is empty) fails
// with the error reading it, as Ansible does, and a module the kernel
// refuses to load fails with modprobe's own message. One round trip.
type modprobeModule struct{}

var _ tasks.Module = (*modprobeModule)(nil)

var modprobeArgs = &tasks.Spec{
	Module:  "modprobe",
	Refused: modprobeRefused,
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "params", Default: ""},
	},
}

// modprobeScript loads ($state present) or unloads $name with the words
// of $@ as its parameters. It prints loaded= before, changed=, and on a
// failure fail=, rc= and the command's output (_t_tail).
//
//go:embed modprobe.sh
var modprobeScript string

// Run loads or unloads the module.
func (modprobeModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := modprobeArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, state, params := a.Str("name"), a.Str("state"), a.Str("params")
	words, err := shlex.Split(params)
	if err != nil {
		return tasks.Result{}, fmt.Errorf("params: %v", err)
	}
	script := shared.SysFuncs + shared.ShAssign([][2]string{{"name", name}, {"state", state}, {"check", shared.BoolFlag(env.Check)}}) +
		shared.SetArgs(words) + modprobeScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	data := map[string]any{"name": name, "params": params, "state": state}
	switch {
	case v["pyerr"] != "":
		return tasks.Result{Failed: true, Msg: v["pyerr"], Data: data}, nil
	case v["fail"] == "rc":
		rc, _ := strconv.Atoi(v["rc"])
		data["rc"] = rc
		shared.OutputData(data, out, errOut)
		if _, ok := data["stdout"]; !ok {
			data["stdout"], data["stdout_lines"] = "", []any{}
		}
		if _, ok := data["stderr"]; !ok {
			data["stderr"], data["stderr_lines"] = "", []any{}
		}
		return tasks.Result{Failed: true, Msg: errOut, Data: data}, nil
	case v["fail"] != "":
		return tasks.Result{Failed: true, Msg: v["fail"], Data: map[string]any{}}, nil
	case res.ExitCode != 0 || v["changed"] == "":
		return tasks.Result{Failed: true, Msg: shared.ScriptError(res), Data: map[string]any{}}, nil
	}
	r := tasks.Result{Changed: v["changed"] == "1", Data: data}
	if w := strings.TrimSpace(v["warn"]); w != "" {
		r.Warnings = []string{w}
	}
	return shared.WithWarnings(r), nil
}

func (modprobeModule) Spec() *tasks.Spec { return modprobeArgs }
