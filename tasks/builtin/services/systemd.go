package services

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// systemdModule controls systemd units with systemctl, as Ansible's
// systemd: daemon-reload, mask, enable and the running state, one round
// trip. Its status is systemctl show's properties from before any change.
type systemdModule struct{}

var _ tasks.Module = systemdModule{}

var systemdArgs = &tasks.Spec{
	Module: "systemd",
	Params: []tasks.Param{
		{Name: "name", Aliases: []string{"service", "unit"}},
		{Name: "state", Choices: []string{"reloaded", "restarted", "started", "stopped"}},
		{Name: "enabled", Kind: tasks.Bool},
		{Name: "force", Kind: tasks.Bool},
		{Name: "masked", Kind: tasks.Bool},
		{Name: "daemon_reload", Kind: tasks.Bool, Default: false, Aliases: []string{"daemon-reload"}},
		{Name: "daemon_reexec", Kind: tasks.Bool, Default: false, Aliases: []string{"daemon-reexec"}},
		{Name: "scope", Default: "system", Choices: []string{"system", "user", "global"}},
		{Name: "no_block", Kind: tasks.Bool, Default: false},
	},
	RequiredOneOf: [][]string{{"state", "enabled", "masked", "daemon_reload", "daemon_reexec"}},
}

// systemdScript does the systemd module's work. Inputs: name, state,
// enabled and masked ("", yes, no), reload and reexec (non-empty for on),
// opts (systemctl's extra options, already quoted words), _t_check. It
// prints key=value lines (verdict=failed with msg; or changed, enabled,
// warning, verdict=done) and then, after "--output--", systemctl show's
// output from before any change or, on failure, the failed command's
// output as it is, which ends the message.
//
//go:embed systemd.sh
var systemdScript string

// Run brings the unit to the state asked.
func (systemdModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	j, res, err := decodeSystemd(args)
	if j == nil {
		return res, err
	}
	out, err := shared.RunSplitLib(ctx, env, j.script(env.Check), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(out), nil
}

// systemdJob is one systemd task: its decoded arguments and the unit's
// name.
type systemdJob struct {
	a    tasks.Values
	name string
}

// decodeSystemd validates systemd's arguments and returns the job they
// describe, or (with a nil job) the error or failed result the task ends
// with: a parameter that needs name without one, a glob in the name.
func decodeSystemd(args tasks.Args) (*systemdJob, tasks.Result, error) {
	a, err := systemdArgs.Decode(args)
	if err != nil {
		return nil, tasks.Result{}, err
	}
	name := a.Str("name")
	for _, k := range []string{"state", "enabled", "masked"} {
		if a.Has(k) && name == "" {
			return nil, tasks.Result{}, fmt.Errorf("missing parameter(s) required by '%s': name", k)
		}
	}
	if strings.ContainsAny(name, "*?[") {
		c := name[strings.IndexAny(name, "*?["):][:1]
		return nil, shared.Fail(fmt.Sprintf("This module does not currently support using glob patterns, found '%s' in service name: %s", c, name)), nil
	}
	return &systemdJob{a: a, name: name}, tasks.Result{}, nil
}

// yesNo is the boolean parameter k as the script reads it: "yes", "no",
// or "" when it was not given.
func (j *systemdJob) yesNo(k string) string {
	if !j.a.Has(k) {
		return ""
	}
	if j.a.Bool(k) {
		return "yes"
	}
	return "no"
}

// options are systemctl's extra options the scope, no_block and force
// ask for, space-separated.
func (j *systemdJob) options() string {
	opts := ""
	if s := j.a.Str("scope"); s != "system" {
		opts += " --" + s
	}
	if j.a.Bool("no_block") {
		opts += " --no-block"
	}
	if j.a.Bool("force") {
		opts += " --force"
	}
	return strings.TrimSpace(opts)
}

// script is the job's systemdScript, changing nothing when check is set.
func (j *systemdJob) script(check bool) shared.Lib {
	a := j.a
	vars := [][2]string{
		{"name", j.name}, {"state", a.Str("state")}, {"enabled", j.yesNo("enabled")}, {"masked", j.yesNo("masked")},
		{"reload", shared.BoolFlag(a.Bool("daemon_reload"))}, {"reexec", shared.BoolFlag(a.Bool("daemon_reexec"))},
		{"scope", a.Str("scope")}, {"_t_check", shared.BoolFlag(check)},
	}
	vars = append(vars, [2]string{"opts", j.options()})
	return shared.Lib{Pieces: systemdLib, Script: shared.ShAssign(vars) + "_t_systemd_main\n"}
}

// systemdLib is systemd.sh as a Lib piece.
var systemdLib = []string{shared.TmpdLib, shared.MainFunc("_t_systemd_main", systemdScript)}

// result turns the script's output into the task's result: the failure
// it reported, or the unit's name, status, enabled and state.
func (j *systemdJob) result(out transport.Result) tasks.Result {
	v, show := shared.SplitOutput(out.Stdout)
	var res tasks.Result
	if w := v["warning"]; w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	switch v["verdict"] {
	case "failed":
		res.Failed, res.Msg, res.Data = true, v["msg"]+show, map[string]any{}
		return res
	case "done":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}
	}
	var nameV any
	if j.name != "" {
		nameV = j.name
	}
	res.Changed = v["changed"] == "1"
	res.Data = map[string]any{"name": nameV, "status": parseSystemctlShow(show)}
	if e, ok := v["enabled"]; ok {
		res.Data["enabled"] = e == "yes"
	}
	if st := j.a.Str("state"); st != "" {
		if st == "reloaded" || st == "restarted" {
			st = "started"
		}
		res.Data["state"] = st
	}
	return res
}

// parseSystemctlShow reads systemctl show's Key=Value lines; an Exec*
// value in braces may span lines.
func parseSystemctlShow(out string) map[string]any {
	parsed := map[string]any{}
	var key string
	var multi []string
	for _, line := range strings.Split(out, "\n") {
		if key == "" {
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			if strings.HasPrefix(k, "Exec") && strings.HasPrefix(strings.TrimLeft(v, " \t"), "{") && !strings.HasSuffix(strings.TrimRight(v, " \t"), "}") {
				key, multi = k, []string{v}
				continue
			}
			parsed[k] = strings.TrimSpace(v)
			continue
		}
		multi = append(multi, line)
		if strings.HasSuffix(strings.TrimRight(line, " \t"), "}") {
			parsed[key] = strings.TrimSpace(strings.Join(multi, "\n"))
			key, multi = "", nil
		}
	}
	return parsed
}

func (systemdModule) Spec() *tasks.Spec { return systemdArgs }
