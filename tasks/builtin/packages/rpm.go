package packages

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// rpmModule is dnf or yum (tool): packages on RedHat-family hosts through
// the tool's command line, one round trip: rpm -q says what is installed,
// "list available" and "check-update" what the repositories offer, and
// one install, upgrade and remove call each change what differs. Results
// are shaped as Ansible's dnf module returns them (msg, rc, results with
// "Installed: NEVRA" and "Removed: NEVRA", failures).
type rpmModule struct{ tool string }

var _ tasks.Module = rpmModule{}

func rpmSpec(tool string) *tasks.Spec {
	return &tasks.Spec{
		Module:  tool,
		Refused: rpmRefused,
		Params: []tasks.Param{
			{Name: "name", Kind: tasks.List, Aliases: []string{"pkg"}},
			{Name: "state", Choices: []string{"absent", "installed", "latest", "present", "removed"}},
			{Name: "enablerepo", Kind: tasks.List},
			{Name: "disablerepo", Kind: tasks.List},
			{Name: "update_cache", Kind: tasks.Bool, Default: false, Aliases: []string{"expire-cache"}},
			{Name: "disable_gpg_check", Kind: tasks.Bool, Default: false},
			{Name: "autoremove", Kind: tasks.Bool, Default: false},
		},
		RequiredOneOf: [][]string{{"name", "update_cache", "autoremove"}},
	}
}

var rpmSpecs = map[string]*tasks.Spec{"dnf": rpmSpec("dnf"), "yum": yumSpec()}

// yumSpec is dnf's arguments plus use and use_backend, which pick the
// backend as Ansible's yum action does.
func yumSpec() *tasks.Spec {
	s := rpmSpec("yum")
	s.Params = append(s.Params, tasks.Param{Name: "use"},
		tasks.Param{Name: "use_backend", Choices: []string{"auto", "dnf", "yum", "yum4"}})
	return s
}

// Run installs, upgrades or removes the packages.
func (m rpmModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	j, res, err := m.job(ctx, env, args)
	if j == nil {
		return res, err
	}
	out, err := shared.Run(ctx, env, j.script(env.Check, false), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	head, output, _ := strings.Cut(string(out.Stdout), "\n--output--\n")
	return rpmResult(shared.ParseVerdict([]byte(head)), strings.Split(head, "\n"), output), nil
}

// rpmJob is what one run of rpmScript does.
type rpmJob struct {
	tool, state        string
	names, opts        []string
	update, autoremove bool
}

// job decodes a task's arguments into the script's inputs. A nil job
// comes with the task's result (a failure) or error.
func (m rpmModule) job(ctx context.Context, env *tasks.Env, args tasks.Args) (*rpmJob, tasks.Result, error) {
	a, err := rpmSpecs[m.tool].Decode(args)
	if err != nil {
		return nil, tasks.Result{}, err
	}
	if m.tool == "yum" {
		tool, res, err := yumBackend(ctx, env, a.Str("use"), a.Str("use_backend"))
		if tool == "" || err != nil {
			return nil, res, err
		}
		m.tool = tool
	}
	j := &rpmJob{tool: m.tool, names: a.Strings("name"), state: a.Str("state"),
		update: a.Bool("update_cache"), autoremove: a.Bool("autoremove")}
	switch j.state {
	case "":
		j.state = "present"
		if j.autoremove {
			j.state = "absent"
		}
	case "installed":
		j.state = "present"
	case "removed":
		j.state = "absent"
	}
	for _, n := range j.names {
		if strings.ContainsAny(n, "\n\r") || strings.TrimSpace(n) == "" {
			return nil, tasks.Result{}, fmt.Errorf("%s: invalid package name %q", m.tool, n)
		}
	}
	for _, o := range []struct{ key, flag string }{{"enablerepo", "--enablerepo="}, {"disablerepo", "--disablerepo="}} {
		if l := a.Strings(o.key); len(l) > 0 {
			j.opts = append(j.opts, o.flag+strings.Join(l, ","))
		}
	}
	// Ansible's dnf turns signature checks on for repositories that do not
	// say otherwise and for local rpms unless disable_gpg_check.
	if a.Bool("disable_gpg_check") {
		j.opts = append(j.opts, "--nogpgcheck")
	} else {
		j.opts = append(j.opts, "--setopt=gpgcheck=1", "--setopt=localpkg_gpgcheck=1")
	}
	for _, o := range j.opts {
		if strings.ContainsAny(o, "\n\r") {
			return nil, tasks.Result{}, fmt.Errorf("%s: invalid repository name in %q", m.tool, o)
		}
	}
	return j, tasks.Result{}, nil
}

// script is rpmScript with j's inputs; deps asks it for the dependencies
// between the packages the transaction changed (for Batch).
func (j *rpmJob) script(check, deps bool) string {
	return shared.ShAssign([][2]string{
		{"tool", j.tool}, {"names", strings.Join(j.names, "\n")}, {"state", j.state}, {"opts", strings.Join(j.opts, "\n")},
		{"update", shared.BoolFlag(j.update)}, {"autoremove", shared.BoolFlag(j.autoremove)}, {"_t_check", shared.BoolFlag(check)}, {"deps", shared.BoolFlag(deps)},
	}) + rpmScript
}

// rpmResult shapes the script's verdict as Ansible's dnf reports it:
// "Installed <path>" for each local rpm, then the transaction's
// "Installed: NEVRA" and "Removed: NEVRA", each set sorted.
func rpmResult(v shared.Verdict, head []string, output string) tasks.Result {
	files, installed, removed, failures := []any{}, []string{}, []string{}, []any{}
	for _, l := range head {
		k, val, _ := strings.Cut(l, "=")
		switch k {
		case "file":
			files = append(files, "Installed "+val)
		case "installed":
			installed = append(installed, "Installed: "+val)
		case "removed":
			removed = append(removed, "Removed: "+val)
		case "failure":
			failures = append(failures, val)
		}
	}
	sort.Strings(installed)
	sort.Strings(removed)
	results := append([]any{}, files...)
	for _, r := range append(installed, removed...) {
		results = append(results, r)
	}
	switch v["verdict"] {
	case "failed":
		return shared.Fail(v["msg"])
	case "cache":
		return tasks.Result{Msg: "Cache updated", Data: map[string]any{"results": []any{}, "rc": 0}}
	case "failures":
		return tasks.Result{Failed: true, Msg: "Failed to install some of the specified packages", RC: 1,
			Data: map[string]any{"failures": failures, "results": []any{}, "rc": 1}}
	case "nothing":
		return tasks.Result{Msg: "Nothing to do", Data: map[string]any{"results": files, "rc": 0}}
	case "check":
		return tasks.Result{Changed: true, Msg: "Check mode: No changes made, but would have if not in check mode",
			Data: map[string]any{"results": results, "rc": 0}}
	case "ran":
	default:
		return tasks.Result{Failed: true, Msg: "the module script printed no verdict"}
	}
	if v["rc"] != "0" {
		return tasks.Result{Failed: true, Msg: "Failed to install some of the specified packages", RC: 1,
			Data: map[string]any{"failures": []any{strings.TrimSpace(output)}, "results": []any{}, "rc": 1}}
	}
	return tasks.Result{Changed: true, Data: map[string]any{"msg": "", "results": results, "rc": 0}}
}

func (m rpmModule) Spec() *tasks.Spec { return rpmSpecs[m.tool] }
