package files

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
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
	Module:  "selinux",
	Refused: selinuxRefused,
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

// Run sets the policy and state: the task decoded, one round trip reads
// the running mode and the config file, the changes are planned in Go,
// and one more round trip applies them when there are any.
func (selinuxModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := selinuxArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j := decodeSelinux(a)
	res, err := shared.Run(ctx, env, j.readScript(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	if res.ExitCode != 0 {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	v := shared.ParseVerdict(res.Stdout)
	if v["config"] != "1" {
		return j.withoutConfig(v["enabled"] == "1"), nil
	}
	p, done := j.plan(v, env.Check)
	if done != nil {
		return *done, nil
	}
	if !env.Check && (p.setPolicy || p.setState || p.enforce != "") {
		res, err := shared.Run(ctx, env, j.applyScript(p), nil)
		if err != nil {
			return tasks.Result{}, err
		}
		if fail := selinuxApplied(res); fail != nil {
			return *fail, nil
		}
	}
	return j.result(p), nil
}

// selinuxJob is one selinux task: the state and policy asked for and the
// config file that holds them.
type selinuxJob struct {
	state, policy, cf string
}

// selinuxPlan is what a selinux task changes: the policy it ends with
// (and the one it reports), whether the config file's policy and state
// are written, the running mode to set ("" to leave it), and the
// messages and warnings that say so.
type selinuxPlan struct {
	policy              string
	policyOut           any
	setPolicy, setState bool
	enforce             string
	msgs, warnings      []string
	changed, reboot     bool
}

// decodeSelinux reads the task's state, policy and config file; a missing
// policy is only refused once the host has been read, as the module does.
func decodeSelinux(a tasks.Values) selinuxJob {
	return selinuxJob{state: a.Str("state"), policy: a.Str("policy"), cf: a.Str("configfile")}
}

// readScript is the script that reads the running mode and the config
// file (selinux_read.sh).
func (j selinuxJob) readScript() string {
	return fmt.Sprintf("cf=%s\npolicy=%s\n%s", shared.Q(j.cf), shared.Q(j.policy), selinuxReadScript)
}

// withoutConfig is the result on a host with no config file: success with
// a warning when SELinux is off and disabled was asked, else Ansible's
// "Unable to find file" failure.
func (j selinuxJob) withoutConfig(enabled bool) tasks.Result {
	if j.state == "disabled" && !enabled {
		return shared.WithWarnings(tasks.Result{Warnings: []string{"SELinux is not present on this host: nothing to disable"},
			Data: map[string]any{"msg": "", "configfile": j.cf, "policy": nil, "state": j.state, "reboot_required": false}})
	}
	return tasks.Result{Failed: true, Msg: "Unable to find file " + j.cf, Data: map[string]any{
		"details": "Please install SELinux-policy package, if this package is not installed previously."}}
}

// plan works out the changes from what the read found (v); a non-nil
// result ends the task there: a missing or unknown policy, or, in check
// mode, a policy change.
func (j selinuxJob) plan(v shared.Verdict, check bool) (selinuxPlan, *tasks.Result) {
	p := selinuxPlan{policy: j.policy}
	if j.state != "disabled" {
		if p.policy == "" {
			r := shared.Fail("Policy is required if state is not 'disabled'")
			return p, &r
		}
	} else if p.policy == "" {
		if cp, ok := v["config_policy"]; ok {
			p.policy = cp
		}
	}
	if _, ok := v["config_policy"]; ok || p.policy != "" {
		p.policyOut = p.policy
	}
	checkOnly := tasks.Result{Changed: true, Data: map[string]any{}}
	if p.policy != v["runtime_policy"] {
		if check {
			return p, &checkOnly
		}
		p.msgs = append(p.msgs, fmt.Sprintf("Running SELinux policy changed from '%s' to '%s'", v["runtime_policy"], p.policy))
		p.changed = true
	}
	if p.policy != v["config_policy"] {
		if check {
			return p, &checkOnly
		}
		if v["policy_ok"] != "1" {
			r := shared.Fail(fmt.Sprintf("Policy %s does not exist in /etc/selinux/", p.policy))
			return p, &r
		}
		p.setPolicy = true
		p.msgs = append(p.msgs, fmt.Sprintf("SELinux policy configuration in '%s' changed from '%s' to '%s'", j.cf, orNone(v, "config_policy"), p.policy))
		p.changed = true
	}
	p.planState(j, v)
	return p, nil
}

// planState adds the changes to the running mode and to the config
// file's state that the state asked for needs, given what the read
// found (v).
func (p *selinuxPlan) planState(j selinuxJob, v shared.Verdict) {
	enabled := v["enabled"] == "1"
	runtimeState := "disabled"
	if enabled {
		runtimeState = "permissive"
		if strings.TrimSpace(v["enforce"]) == "1" {
			runtimeState = "enforcing"
		}
	}
	state := j.state
	if state != runtimeState {
		switch {
		case !enabled:
			p.warnings = append(p.warnings, fmt.Sprintf("Reboot is required to set SELinux state to '%s'", state))
			p.reboot = true
		case state == "disabled" && runtimeState != "permissive":
			p.enforce = "0"
			p.warnings = append(p.warnings, fmt.Sprintf("SELinux state temporarily changed from '%s' to 'permissive'. State change will take effect next reboot.", runtimeState))
			p.changed, p.reboot = true, true
		case state == "disabled":
			p.warnings = append(p.warnings, "SELinux state change will take effect next reboot")
			p.reboot = true
		default:
			p.enforce = map[string]string{"enforcing": "1", "permissive": "0"}[state]
			p.msgs = append(p.msgs, fmt.Sprintf("SELinux state changed from '%s' to '%s'", runtimeState, state))
			p.changed = true
		}
	}
	if state != v["config_state"] {
		p.setState = true
		p.msgs = append(p.msgs, fmt.Sprintf("Config SELinux state changed from '%s' to '%s'", orNone(v, "config_state"), state))
		p.changed = true
	}
}

// applyScript is the script that writes the planned policy and state into
// the config file and sets the running mode (selinux_apply.sh).
func (j selinuxJob) applyScript(p selinuxPlan) string {
	return fmt.Sprintf("cf=%s\npolicy=%s\nstate=%s\nsetpolicy=%s\nsetstate=%s\nenforce=%s\n%s", shared.Q(j.cf), shared.Q(p.policy), shared.Q(j.state),
		shared.BoolFlag(p.setPolicy), shared.BoolFlag(p.setState), shared.Q(p.enforce), selinuxApplyScript)
}

// selinuxApplied is the failure the apply script's output (res) reports,
// or nil when it applied everything.
func selinuxApplied(res transport.Result) *tasks.Result {
	av := shared.ParseVerdict(res.Stdout)
	if av["fail"] != "" {
		r := shared.Fail(av["fail"])
		return &r
	}
	if res.ExitCode != 0 || av["applied"] != "1" {
		r := shared.Fail(shared.ScriptError(res))
		return &r
	}
	return nil
}

// result is the task's result for the plan p.
func (j selinuxJob) result(p selinuxPlan) tasks.Result {
	msg := strings.Join(p.msgs, ", ")
	r := tasks.Result{Changed: p.changed, Warnings: p.warnings, Msg: msg, Data: map[string]any{"msg": msg,
		"configfile": j.cf, "policy": p.policyOut, "state": j.state, "reboot_required": p.reboot}}
	return shared.WithWarnings(r)
}

func (selinuxModule) Spec() *tasks.Spec { return selinuxArgs }

// orNone is the config file's value v[key] as the module prints it:
// None when the file has no such line.
func orNone(v shared.Verdict, key string) string {
	if s, ok := v[key]; ok {
		return s
	}
	return "None"
}
