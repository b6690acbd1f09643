package packages

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// dpkgSelectionsModule sets a package's dpkg selection (install, hold,
// deinstall, purge) as Ansible's dpkg_selections does: dpkg
// --get-selections reads it and, when it differs, dpkg --set-selections
// sets it, in one round trip. The name travels quoted; the selection line
// reaches dpkg on its standard input.
//
// One deliberate difference from ansible-core 2.14: a name dpkg knows
// nothing about fails with "Failed to find package ..." (as ansible-core
// does since 2.16), where 2.14 reported changed on every run while dpkg
// ignored the line.
type dpkgSelectionsModule struct{}

var _ tasks.Module = dpkgSelectionsModule{}

var dpkgSelectionsArgs = &tasks.Spec{
	Module: "dpkg_selections",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "selection", Required: true, Choices: []string{"install", "hold", "deinstall", "purge"}},
	},
}

// Spec returns dpkg_selections' parameters.
func (dpkgSelectionsModule) Spec() *tasks.Spec { return dpkgSelectionsArgs }

// dpkgSelectionsScript reads $name's selection and sets $sel when it
// differs (unless $check). It prints dpkg=, then cur= (empty: not
// present), missing=1 for a name dpkg does not know, set=1 once set, or
// failed=get|set with the failing command's rc and its output (tailed).
//
//go:embed dpkg_selections.sh
var dpkgSelectionsScript string

// Run reads and, when it differs, sets the selection.
func (dpkgSelectionsModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := dpkgSelectionsArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, sel := a.Str("name"), a.Str("selection")
	script := shared.SysFuncs + shared.DebBinFuncs + shared.ShAssign([][2]string{
		{"name", name}, {"sel", sel}, {"check", shared.BoolFlag(env.Check)}}) + dpkgSelectionsScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	switch {
	case v["fail"] != "":
		return shared.Fail(v["fail"]), nil
	case v["failed"] != "":
		cmd := shared.Q(v["dpkg"]) + " --get-selections " + shared.Q(name)
		if v["failed"] == "set" {
			cmd = shared.Q(v["dpkg"]) + " --set-selections"
		}
		rc := shared.DebAtoi(v["rc"], 1)
		d := map[string]any{"cmd": cmd, "rc": rc, "stdout": out, "stderr": errOut,
			"stdout_lines": shared.Lines(out), "stderr_lines": shared.Lines(errOut)}
		return tasks.Result{Failed: true, RC: rc, Msg: strings.TrimRight(errOut, " \t\r\n"), Data: d}, nil
	case v["missing"] == "1":
		return shared.Fail(fmt.Sprintf("Failed to find package '%s' to perform selection '%s'.", name, sel)), nil
	}
	cur, ok := v["cur"]
	if !ok {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	if cur == "" {
		cur = "not present"
	}
	changed := cur != sel
	if changed && !env.Check && v["set"] != "1" {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	return tasks.Result{Changed: changed, Data: map[string]any{"before": cur, "after": sel}}, nil
}
