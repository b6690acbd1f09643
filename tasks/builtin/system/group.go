package system

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// groupModule manages a local group as Ansible's group module does on
// Linux, in one round trip: groupadd/groupmod/groupdel, or busybox's
// addgroup/delgroup (and an edit of /etc/group for a new gid) where
// groupadd is missing.
type groupModule struct{}

var _ tasks.Module = (*groupModule)(nil)

var groupArgs = &tasks.Spec{
	Module:  "group",
	Refused: groupRefused,
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "gid", Kind: tasks.Int},
		{Name: "system", Kind: tasks.Bool, Default: false},
		{Name: "non_unique", Kind: tasks.Bool, Default: false},
	},
}

// groupScript adds, renumbers or removes the group $name. It prints
// changed=, created=, rc=, fail= and the group's gid=, then the commands'
// output (_t_tail).
//
//go:embed group.sh
var groupScript string

// groupLib is group.sh and what it needs, as Lib pieces.
var groupLib = []string{shared.ShFuncs, shared.TmpdLib, shared.SysLib, shared.MainFunc("_t_group_main", groupScript)}

// Run adds, changes or removes the group.
func (groupModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := groupArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if a.Bool("non_unique") && !a.Has("gid") {
		return tasks.Result{}, fmt.Errorf("non_unique is True but all of the following are missing: gid")
	}
	name, state := a.Str("name"), a.Str("state")
	gid := ""
	if a.Has("gid") {
		gid = strconv.Itoa(a.Int("gid"))
	}
	// _t_grent reads the group's entry first; "changed=0" is the verdict
	// of a task that changed nothing.
	l := shared.Lib{Pieces: groupLib, Script: shared.SysVars + shared.ShAssign([][2]string{
		{"name", name}, {"state", state}, {"gid", gid}, {"nonuniq", shared.BoolFlag(a.Bool("non_unique"))},
		{"system", shared.BoolFlag(a.Bool("system"))}, {"check", shared.BoolFlag(env.Check)},
	}) + "_t_group_main\n", Group: name, Unchanged: "changed=0"}
	res, err := shared.RunVerdictLib(ctx, env, l, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	switch {
	case res.ExitCode != 0 && v["fail"] == "":
		return tasks.Result{Failed: true, Msg: shared.ScriptError(res), Data: map[string]any{}}, nil
	case v["fail"] == "rc":
		return tasks.Result{Failed: true, Msg: errOut, Data: map[string]any{"name": name}}, nil
	case v["fail"] != "":
		return tasks.Result{Failed: true, Msg: v["fail"], Data: map[string]any{}}, nil
	}
	r := tasks.Result{Changed: v["changed"] == "1", Data: map[string]any{}}
	if env.Check && r.Changed && (state == "absent" || v["created"] == "1") {
		return r, nil // Ansible says only "changed" here
	}
	d := r.Data
	d["name"], d["state"] = name, state
	shared.OutputData(d, out, errOut)
	if g, ok := v["gid"]; ok {
		n, _ := strconv.Atoi(g)
		d["gid"], d["system"] = n, a.Bool("system")
	}
	return r, nil
}

func (groupModule) Spec() *tasks.Spec { return groupArgs }
