package services

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
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
	a, err := systemdArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name := a.Str("name")
	for _, k := range []string{"state", "enabled", "masked"} {
		if a.Has(k) && name == "" {
			return tasks.Result{}, fmt.Errorf("missing parameter(s) required by '%s': name", k)
		}
	}
	if strings.ContainsAny(name, "*?[") {
		c := name[strings.IndexAny(name, "*?["):][:1]
		return shared.Fail(fmt.Sprintf("This module does not currently support using glob patterns, found '%s' in service name: %s", c, name)), nil
	}
	yn := func(k string) string {
		if !a.Has(k) {
			return ""
		}
		if a.Bool(k) {
			return "yes"
		}
		return "no"
	}
	opts := ""
	if s := a.Str("scope"); s != "system" {
		opts += " --" + s
	}
	if a.Bool("no_block") {
		opts += " --no-block"
	}
	if a.Bool("force") {
		opts += " --force"
	}
	vars := [][2]string{
		{"name", name}, {"state", a.Str("state")}, {"enabled", yn("enabled")}, {"masked", yn("masked")},
		{"reload", shared.BoolFlag(a.Bool("daemon_reload"))}, {"reexec", shared.BoolFlag(a.Bool("daemon_reexec"))},
		{"scope", a.Str("scope")}, {"_t_check", shared.BoolFlag(env.Check)},
	}
	vars = append(vars, [2]string{"opts", strings.TrimSpace(opts)})
	script := shared.ShAssign(vars) + systemdScript
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, show := shared.SplitOutput(out.Stdout)
	var res tasks.Result
	if w := v["warning"]; w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	switch v["verdict"] {
	case "failed":
		res.Failed, res.Msg, res.Data = true, v["msg"]+show, map[string]any{}
		return res, nil
	case "done":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}, nil
	}
	var nameV any
	if name != "" {
		nameV = name
	}
	res.Changed = v["changed"] == "1"
	res.Data = map[string]any{"name": nameV, "status": parseSystemctlShow(show)}
	if e, ok := v["enabled"]; ok {
		res.Data["enabled"] = e == "yes"
	}
	if st := a.Str("state"); st != "" {
		if st == "reloaded" || st == "restarted" {
			st = "started"
		}
		res.Data["state"] = st
	}
	return res, nil
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
