package system

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// hostnameModule sets the host's name with the strategy Ansible's
// hostname module would pick (or the one named by use): hostnamectl on a
// host managed by systemd, else by distribution the name file
// (/etc/hostname on Debian and its kin, also applied with hostname -F on
// Alpine), /etc/sysconfig/network on RedHat, /etc/conf.d/hostname on
// OpenRC. As with Ansible, the file strategies of Debian-like hosts
// change the permanent name only: the running name follows at the next
// boot. A host that refuses the change (a container without
// CAP_SYS_ADMIN asked to run hostname or hostnamectl) fails with the
// command's error, as Ansible does.
type hostnameModule struct{}

var _ tasks.Module = (*hostnameModule)(nil)

var hostnameArgs = &tasks.Spec{
	Module: "hostname",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "use", Choices: []string{"alpine", "debian", "freebsd", "generic", "macos", "macosx", "darwin", "openbsd", "openrc", "redhat", "sles", "solaris", "systemd"}},
	},
}

// hostnameScript reads the current and permanent names with $strategy
// (picked here when empty), sets them to $name unless $check, and prints
// the verdict: strategy, current, permanent, changed, fqdn.
//
//go:embed hostname.sh
var hostnameScript string

// hostnameStrategies maps use= to the script's strategy names.
var hostnameStrategies = map[string]string{
	"alpine": "alpine", "debian": "systemd", "systemd": "systemd", "redhat": "redhat",
	"openrc": "openrc", "sles": "sles", "generic": "generic", "freebsd": "freebsd",
	"macos": "darwin", "macosx": "darwin", "darwin": "darwin", "openbsd": "openbsd", "solaris": "solaris",
}

// Run sets the name.
func (hostnameModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := hostnameArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name := a.Str("name")
	script := fmt.Sprintf("%sname=%s\nstrategy=%s\ncheck=%s\n%s", shared.SysFuncsLazy, shared.Q(name), shared.Q(hostnameStrategies[a.Str("use")]),
		shared.BoolFlag(env.Check), hostnameScript)
	res, err := shared.RunTailed(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, _, failMsg := shared.Tailed(res.Stdout)
	if v["fail"] != "" {
		return tasks.Result{Failed: true, Msg: failMsg, Data: map[string]any{}}, nil
	}
	if res.ExitCode != 0 || v["changed"] == "" {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(res), Data: map[string]any{}}, nil
	}
	fqdn := v["fqdn"]
	domain := ""
	if _, d, ok := strings.Cut(fqdn, "."); ok {
		domain = d
	}
	short, _, _ := strings.Cut(name, ".")
	r := tasks.Result{Changed: v["changed"] == "1", Data: map[string]any{"name": name, "ansible_facts": map[string]any{
		"ansible_hostname": short, "ansible_nodename": name, "ansible_fqdn": fqdn, "ansible_domain": domain}}}
	if r.Changed {
		before := v["permanent"]
		if name != v["current"] {
			before = v["current"]
		}
		r.Data["diff"] = map[string]any{"before": "hostname = " + before + "\n", "after": "hostname = " + name + "\n"}
		if env.Diff {
			r.Diff = shared.UnifiedDiff("hostname", "hostname = "+before+"\n", "hostname = "+name+"\n")
		}
	}
	return r, nil
}

func (hostnameModule) Spec() *tasks.Spec { return hostnameArgs }
