package packages

import (
	"context"
	_ "embed"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// packageModule is Ansible's generic package: it hands the task, minus
// use, to the module of the host's package manager (the
// ansible_pkg_mgr fact, or use), finding the manager with one probe when
// facts were not gathered.
type packageModule struct{}

var _ tasks.Module = packageModule{}

var packageArgs = &tasks.Spec{
	Module: "package",
	Params: []tasks.Param{
		{Name: "name", Kind: tasks.Raw, Required: true},
		{Name: "state", Required: true},
		{Name: "use", Default: "auto"},
	},
}

// pkgProbe names the first package manager found on the host, in the
// order Ansible's fact collector prefers them.
//
//go:embed pkg_probe.sh
var pkgProbe string

// Run dispatches to apt, dnf, yum, ... with the task's other arguments.
func (m packageModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	mod, res, err := m.manager(ctx, env, args)
	if mod == nil || err != nil {
		return res, err
	}
	return mod.Run(ctx, env, forwarded(args))
}

// manager returns the module of the package manager args and the host
// ask for, or the result of not finding one.
func (packageModule) manager(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Module, tasks.Result, error) {
	// Like Ansible's package action, only use is checked here: name and
	// state (documented as required) are the manager module's to check,
	// so apt's default state=present applies.
	a, err := packageUseArg.Decode(withoutExtra(args, packageUseArg))
	if err != nil {
		return nil, tasks.Result{}, err
	}
	mgr := a.Str("use")
	if mgr == "auto" && env.Eval != nil {
		if v, err := env.Eval("ansible_pkg_mgr"); err == nil {
			if s, ok := v.(string); ok && s != "" {
				mgr = s
			}
		}
	}
	if mgr == "auto" {
		out, err := shared.Run(ctx, env, pkgProbe, nil)
		if err != nil {
			return nil, tasks.Result{}, err
		}
		if mgr = strings.TrimSpace(string(out.Stdout)); mgr == "unknown" {
			mgr = "auto"
		}
	}
	reg := env.Modules
	if reg == nil {
		reg = packageManagers()
	}
	if _, known := packageManagers().Lookup(mgr); known && mgr != "package" {
		if _, allowed := reg.Lookup(mgr); !allowed {
			return nil, shared.Fail("package would hand this task to " + mgr + ", which this run does not allow"), nil
		}
	}
	f, ok := reg.Lookup(mgr)
	switch {
	case mgr == "auto" || mgr == "":
		return nil, shared.Fail("Could not detect which package manager to use. Try gathering facts or setting the \"use\" option."), nil
	case !ok || mgr == "package":
		return nil, shared.Fail("Could not find a module for " + mgr + "."), nil
	}
	return f(), tasks.Result{}, nil
}

// forwarded is args without use, for the package manager's module.
func forwarded(args tasks.Args) tasks.Args {
	fwd := tasks.Args{}
	for k, v := range args {
		if k != "use" {
			fwd[k] = v
		}
	}
	return fwd
}

// withoutExtra keeps only the arguments spec declares: package passes the
// others through to the package manager's module, which checks them.
func withoutExtra(args tasks.Args, spec *tasks.Spec) tasks.Args {
	out := tasks.Args{}
	for _, p := range spec.Params {
		if v, ok := args[p.Name]; ok {
			out[p.Name] = v
		}
	}
	return out
}

// packageUseArg is the one argument package itself reads.
var packageUseArg = &tasks.Spec{Module: "package", Params: []tasks.Param{{Name: "use", Default: "auto"}}}

func (packageModule) Spec() *tasks.Spec { return packageSpec }

// packageSpec documents package: its own parameters, the rest going to
// the package manager's module.
var packageSpec = &tasks.Spec{Module: "package", Params: packageArgs.Params,
	Other: "any other parameter of the package manager's module (apt, dnf, yum), passed on to it"}

// packageManagers returns a registry of this family's modules, among them
// the package managers package hands a task to.
func packageManagers() *tasks.Registry {
	r := &tasks.Registry{}
	Register(r)
	return r
}
