package services

import (
	"context"
	"strconv"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// serviceModule starts, stops, restarts, reloads and enables services
// over systemd, OpenRC or SysV init scripts (update-rc.d, insserv or
// chkconfig), as Ansible's service: the init system is the
// ansible_service_mgr fact when it names one of those, else the script
// detects it as Ansible's service module does. One round trip.
//
// On a systemd host Ansible's service hands the task to the systemd
// module; so does this one.
type serviceModule struct{}

var _ tasks.Module = serviceModule{}

var serviceArgs = &tasks.Spec{
	Module: "service",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "state", Choices: []string{"started", "stopped", "reloaded", "restarted"}},
		{Name: "sleep", Kind: tasks.Int},
		{Name: "pattern"},
		{Name: "enabled", Kind: tasks.Bool},
		{Name: "runlevel", Default: "default"},
		{Name: "arguments", Default: "", Aliases: []string{"args"}},
		{Name: "use", Default: "auto"},
	},
	RequiredOneOf: [][]string{{"state", "enabled"}},
}

// serviceMgr is the init system to use: "use" when given, else the
// ansible_service_mgr fact; "" lets the script detect it.
func serviceMgr(env *tasks.Env, use string) string {
	if use == "" || use == "auto" {
		if env.Eval != nil {
			if v, err := env.Eval("ansible_service_mgr"); err == nil {
				use, _ = v.(string)
			}
		}
	}
	switch use {
	case "systemd", "openrc":
		return use
	case "sysvinit", "sysv", "service":
		return "sysv"
	}
	return ""
}

// Run brings the service to the state asked.
func (serviceModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := serviceArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	mgr := serviceMgr(env, a.Str("use"))
	if mgr == "systemd" {
		sa := tasks.Args{"name": a.Str("name")}
		for _, k := range []string{"state", "enabled"} {
			if v, ok := a[k]; ok {
				sa[k] = v
			}
		}
		return systemdModule{}.Run(ctx, env, sa)
	}
	sleep := ""
	if a.Has("sleep") {
		sleep = strconv.Itoa(a.Int("sleep"))
	}
	enabled := ""
	if a.Has("enabled") {
		enabled = "no"
		if a.Bool("enabled") {
			enabled = "yes"
		}
	}
	vars := [][2]string{
		{"name", a.Str("name")}, {"state", a.Str("state")}, {"enabled", enabled}, {"pattern", a.Str("pattern")},
		{"args", a.Str("arguments")}, {"runlevel", a.Str("runlevel")}, {"sleep", sleep}, {"mgr", mgr},
		{"_t_check", shared.BoolFlag(env.Check)},
	}
	// Its verdict, then on failure the control command's output after
	// the OutputMark line: what no module wrote.
	cmd := shared.Lib{Pieces: serviceLib, Script: shared.ShAssign(vars) + "_t_service_main\n"}.Final(nil)
	cmd.LinesUntil = shared.OutputMark
	out, err := env.Conn.Run(ctx, cmd)
	if err != nil {
		return tasks.Result{}, err
	}
	v, output := shared.SplitOutput(out.Stdout)
	return serviceResult(a, v, output, out), nil
}

// serviceResult shapes the verdict as Ansible's service returns it.
func serviceResult(a tasks.Values, v shared.Verdict, output string, out transport.Result) tasks.Result {
	changed := v["enabled_changed"] == "1" || v["svc_change"] == "1"
	switch v["verdict"] {
	case "failed":
		return shared.Fail(v["msg"])
	case "checkenable":
		return tasks.Result{Changed: v["enabled_changed"] == "1", Data: map[string]any{}}
	case "check":
		return tasks.Result{Changed: true, Msg: "service state changed", Data: map[string]any{}}
	case "done":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}
	}
	if v["rc"] != "0" {
		return shared.Fail(output)
	}
	data := map[string]any{"name": a.Str("name")}
	if a.Has("enabled") {
		data["enabled"] = a.Bool("enabled")
	}
	if st := a.Str("state"); st != "" {
		data["state"] = "started"
		if st == "stopped" {
			data["state"] = "stopped"
		}
	}
	return tasks.Result{Changed: changed, Data: data}
}

func (serviceModule) Spec() *tasks.Spec { return serviceArgs }
