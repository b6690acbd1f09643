package files

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// selinuxModule sets SELinux's policy and state in its config file and,
// where SELinux runs, its running mode, as ansible.posix's selinux module
// does (without update_kernel_param). It reads the running mode from
// selinuxfs (/sys/fs/selinux) instead of Python's libselinux.
//
// One deliberate difference: on a host without SELinux at all (no config
// file, no selinuxfs: Debian, Alpine) state=disabled succeeds unchanged
// with a warning, since what was asked already holds, where Ansible fails
// for want of the libselinux Python library (or, with it, the config
// file). Asking such a host for enforcing or permissive fails with
// Ansible's "Unable to find file" message.
type selinuxModule struct{}

var _ tasks.Module = (*selinuxModule)(nil)

var selinuxArgs = &tasks.Spec{
	Module: "selinux",
	Params: []tasks.Param{
		{Name: "policy"},
		{Name: "state", Required: true, Choices: []string{"enforcing", "permissive", "disabled"}},
		{Name: "configfile", Default: "/etc/selinux/config", Aliases: []string{"conf", "file"}},
	},
}

// selinuxReadScript prints the running mode and policy and the config
// file's SELINUX= and SELINUXTYPE= values.
//
//go:embed selinux_read.sh
var selinuxReadScript string

// selinuxApplyScript writes SELINUX= ($state) and SELINUXTYPE= ($policy)
// into the config file as set, and sets the running mode ($enforce).
//
//go:embed selinux_apply.sh
var selinuxApplyScript string

// Run sets the policy and state.
func (selinuxModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := selinuxArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	state, policy, cf := a.Str("state"), a.Str("policy"), a.Str("configfile")
	fail := func(msg string) (tasks.Result, error) {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	script := fmt.Sprintf("cf=%s\npolicy=%s\n%s", shared.Q(cf), shared.Q(policy), selinuxReadScript)
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	if res.ExitCode != 0 {
		return fail(shared.ScriptError(res))
	}
	v := shared.ParseVerdict(res.Stdout)
	enabled := v["enabled"] == "1"
	if v["config"] != "1" {
		if state == "disabled" && !enabled {
			return shared.WithWarnings(tasks.Result{Warnings: []string{"SELinux is not present on this host: nothing to disable"},
				Data: map[string]any{"msg": "", "configfile": cf, "policy": nil, "state": state, "reboot_required": false}}), nil
		}
		return tasks.Result{Failed: true, Msg: "Unable to find file " + cf, Data: map[string]any{
			"details": "Please install SELinux-policy package, if this package is not installed previously."}}, nil
	}
	runtimeState := "disabled"
	if enabled {
		runtimeState = "permissive"
		if strings.TrimSpace(v["enforce"]) == "1" {
			runtimeState = "enforcing"
		}
	}
	var policyOut any = nil
	if state != "disabled" {
		if policy == "" {
			return fail("Policy is required if state is not 'disabled'")
		}
	} else if policy == "" {
		if p, ok := v["config_policy"]; ok {
			policy = p
		}
	}
	if _, ok := v["config_policy"]; ok || policy != "" {
		policyOut = policy
	}
	var msgs, warnings []string
	changed, reboot := false, false
	setPolicy, setState, enforce := false, false, ""
	checkOnly := tasks.Result{Changed: true, Data: map[string]any{}}
	if policy != v["runtime_policy"] {
		if env.Check {
			return checkOnly, nil
		}
		msgs = append(msgs, fmt.Sprintf("Running SELinux policy changed from '%s' to '%s'", v["runtime_policy"], policy))
		changed = true
	}
	if policy != v["config_policy"] {
		if env.Check {
			return checkOnly, nil
		}
		if v["policy_ok"] != "1" {
			return fail(fmt.Sprintf("Policy %s does not exist in /etc/selinux/", policy))
		}
		setPolicy = true
		msgs = append(msgs, fmt.Sprintf("SELinux policy configuration in '%s' changed from '%s' to '%s'", cf, v["config_policy"], policy))
		changed = true
	}
	if state != runtimeState {
		switch {
		case !enabled:
			warnings = append(warnings, fmt.Sprintf("Reboot is required to set SELinux state to '%s'", state))
			reboot = true
		case state == "disabled" && runtimeState != "permissive":
			enforce = "0"
			warnings = append(warnings, fmt.Sprintf("SELinux state temporarily changed from '%s' to 'permissive'. State change will take effect next reboot.", runtimeState))
			changed, reboot = true, true
		case state == "disabled":
			warnings = append(warnings, "SELinux state change will take effect next reboot")
			reboot = true
		default:
			enforce = map[string]string{"enforcing": "1", "permissive": "0"}[state]
			msgs = append(msgs, fmt.Sprintf("SELinux state changed from '%s' to '%s'", runtimeState, state))
			changed = true
		}
	}
	if state != v["config_state"] {
		setState = true
		msgs = append(msgs, fmt.Sprintf("Config SELinux state changed from '%s' to '%s'", v["config_state"], state))
		changed = true
	}
	r := tasks.Result{Changed: changed, Warnings: warnings, Data: map[string]any{"msg": strings.Join(msgs, ", "),
		"configfile": cf, "policy": policyOut, "state": state, "reboot_required": reboot}}
	if !env.Check && (setPolicy || setState || enforce != "") {
		script := fmt.Sprintf("cf=%s\npolicy=%s\nstate=%s\nsetpolicy=%s\nsetstate=%s\nenforce=%s\n%s", shared.Q(cf), shared.Q(policy), shared.Q(state),
			shared.BoolFlag(setPolicy), shared.BoolFlag(setState), shared.Q(enforce), selinuxApplyScript)
		res, err := shared.Run(ctx, env, script, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		av := shared.ParseVerdict(res.Stdout)
		if av["fail"] != "" {
			return fail(av["fail"])
		}
		if res.ExitCode != 0 || av["applied"] != "1" {
			return fail(shared.ScriptError(res))
		}
	}
	r.Msg = r.Data["msg"].(string)
	return shared.WithWarnings(r), nil
}

func (selinuxModule) Spec() *tasks.Spec { return selinuxArgs }
