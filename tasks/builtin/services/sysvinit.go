package services

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// sysvinitModule starts, stops, restarts and reloads a SysV init script
// and enables or disables it (update-rc.d or chkconfig), as ansible-core
// 2.14's sysvinit does: the same ways of telling whether the service
// runs (a ps pattern, the status action's words, its exit code), the
// same commands, the same result (status.enabled and status.<state>
// with each command's rc, stdout and stderr). One round trip.
//
// Where Ansible's would report a change it did not make, tender's fails
// or converges instead (see Run).
type sysvinitModule struct {
	optDirs string // tests change where tools are looked for before PATH
}

var _ tasks.Module = sysvinitModule{}

var sysvinitArgs = &tasks.Spec{
	Module: "sysvinit",
	Params: []tasks.Param{
		{Name: "name", Required: true, Aliases: []string{"service"}},
		{Name: "state", Choices: []string{"started", "stopped", "restarted", "reloaded"}},
		{Name: "enabled", Kind: tasks.Bool},
		{Name: "sleep", Kind: tasks.Int, Default: 1},
		{Name: "pattern"},
		{Name: "arguments", Aliases: []string{"args"}},
		{Name: "runlevels", Kind: tasks.List},
		{Name: "daemonize", Kind: tasks.Bool, Default: false},
	},
	RequiredOneOf: [][]string{{"state", "enabled"}},
}

// Spec is sysvinit's argument specification.
func (sysvinitModule) Spec() *tasks.Spec { return sysvinitArgs }

// runlevelName is what a runlevel may be: tender puts it in a file
// name pattern and on update-rc.d's or chkconfig's command line.
var runlevelName = regexp.MustCompile(`^[A-Za-z0-9]+$`)

// Run brings the init script to the state asked.
//
// Differences from Ansible's, each where Ansible's reports a change it
// did not make and would report it again on every run: runlevels without
// enabled is refused (Ansible's disables the service in them, every
// run); enabling a service whose links say disabled uses "update-rc.d
// NAME enable" (Ansible's runs "defaults", which leaves existing links
// alone); a failing update-rc.d or chkconfig fails the task (Ansible's
// reports changed); and a change of enabled on a host with neither tool
// fails (Ansible's reports changed and runs nothing). The init script
// always runs detached (setsid, no terminal, stdin from /dev/null,
// output to files), so that a daemon it starts outlives the connection
// and cannot hang the task; daemonize adds what else Ansible's daemonize
// does, running it from /. Its rc, stdout and stderr are returned either
// way.
func (m sysvinitModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := sysvinitArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name := a.Str("name")
	levels := a.Strings("runlevels")
	if len(levels) > 0 && !a.Has("enabled") {
		return tasks.Result{}, fmt.Errorf("runlevels needs enabled: without it ansible-core's sysvinit disables the service in those runlevels on every run; say enabled: false to do that")
	}
	for _, rl := range levels {
		if !runlevelName.MatchString(rl) {
			return tasks.Result{}, fmt.Errorf("runlevels: %q is not a runlevel (letters and digits only)", rl)
		}
	}
	words, err := shlex.Split(a.Str("arguments"))
	if err != nil {
		return tasks.Result{}, fmt.Errorf("arguments: %v", err)
	}
	script := name
	if !strings.HasPrefix(name, "/") {
		script = "/etc/init.d/" + name
	}
	state := a.Str("state")
	action := regexp.MustCompile(`p?ed$`).ReplaceAllString(strings.ToLower(state), "")
	enabled := ""
	if a.Has("enabled") {
		enabled = "no"
		if a.Bool("enabled") {
			enabled = "yes"
		}
	}
	var argWords strings.Builder
	for _, w := range words {
		argWords.WriteString(" " + shared.Q(w))
	}
	vars := shared.ShAssign([][2]string{
		{"name", name}, {"script", script}, {"state", action}, {"enabled", enabled},
		{"runlevels", strings.Join(levels, " ")}, {"rlcat", strings.Join(levels, "")},
		{"pattern", a.Str("pattern")}, {"sleep", strconv.Itoa(a.Int("sleep"))}, {"_t_check", shared.BoolFlag(env.Check)},
		{"daemonize", shared.BoolFlag(a.Bool("daemonize"))},
		{"_t_optdirs", shared.OrDefault(m.optDirs, "/sbin:/usr/sbin:/bin:/usr/bin")},
	}) + "_t_args() { \"$@\"" + argWords.String() + "; }\n"
	out, err := shared.Run(ctx, env, vars+sysvinitScript, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, b := shared.ParseBlobs(out.Stdout)
	switch {
	case v["missing"] == "1":
		return shared.Fail(fmt.Sprintf("Could not find the requested service %s: ", name)), nil
	case v["nops"] == "1":
		return shared.Fail(fmt.Sprintf("Failed to find required executable \"ps\" in paths: %s", v["path"])), nil
	case v["running"] == "":
		return shared.Fail(shared.ScriptError(out)), nil
	}
	return sysvinitResult(env, a, state, action, levels, v, b), nil
}

// sysvinitResult shapes the script's verdict as Ansible's sysvinit
// returns it.
func sysvinitResult(env *tasks.Env, a tasks.Values, state, action string, levels []string, v shared.Verdict, b map[string]string) tasks.Result {
	name := a.Str("name")
	var warnings []string
	if v["warn_ps"] == "1" {
		warnings = append(warnings, "Used ps output to match service name and determine it is up, this is very unreliable")
	}
	if v["worked"] != "1" {
		warnings = append(warnings, "Unable to determine if service is up, assuming it is down")
	}
	en := map[string]any{"changed": v["en_changed"] == "1", "rc": nil, "stdout": nil, "stderr": nil}
	if len(levels) > 0 {
		en["runlevels"] = strList(levels)
	}
	stateKey := state
	if stateKey == "" {
		stateKey = "null" // Ansible's key None, as JSON writes it
	}
	st := map[string]any{"changed": v["st_changed"] == "1", "rc": nil, "stdout": nil, "stderr": nil}
	status := map[string]any{"enabled": en, stateKey: st}
	data := map[string]any{"name": name, "status": status}
	res := tasks.Result{Warnings: warnings, Data: data, Changed: v["en_changed"] == "1" || v["st_changed"] == "1"}
	if v["en_ran"] == "1" {
		en["rc"], en["stdout"], en["stderr"] = shared.Atoi(v["en_rc"]), b["en_out"], b["en_err"]
		failed := ""
		switch {
		case strings.Contains(b["en_err"], "illegal runlevel specified"):
			failed = "Illegal runlevel specified for enable operation on service " + name
		case v["en_tool"] == "none":
			failed = fmt.Sprintf("Cannot enable or disable %s: the host has neither update-rc.d nor chkconfig", name)
		case v["en_rc"] != "0":
			failed = fmt.Sprintf("%s failed (rc %s) to change whether %s is enabled: %s", v["en_tool"], v["en_rc"], name, strings.TrimSpace(b["en_err"]))
		}
		if failed != "" {
			res.Failed, res.Msg = true, failed
			return res
		}
	}
	if v["st_fail"] == "1" {
		return tasks.Result{Failed: true, Msg: fmt.Sprintf("Failed to %s service: %s", action, name), Warnings: warnings,
			RC: shared.Atoi(v["st_rc"]), Data: map[string]any{"rc": shared.Atoi(v["st_rc"]), "stdout": b["st_out"], "stderr": b["st_err"],
				"stdout_lines": shared.Lines(b["st_out"]), "stderr_lines": shared.Lines(b["st_err"])}}
	}
	if v["st_changed"] == "1" && !env.Check {
		st["rc"], st["stdout"], st["stderr"] = shared.Atoi(v["st_rc"]), b["st_out"], b["st_err"]
	}
	return res
}
