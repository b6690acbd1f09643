package packages

import (
	"context"
	"fmt"
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
		Module: tool,
		Params: []tasks.Param{
			{Name: "name", Kind: tasks.List, Aliases: []string{"pkg"}},
			{Name: "state", Choices: []string{"absent", "installed", "latest", "present", "removed"}},
			{Name: "list"},
			{Name: "enablerepo", Kind: tasks.List},
			{Name: "disablerepo", Kind: tasks.List},
			{Name: "update_cache", Kind: tasks.Bool, Default: false, Aliases: []string{"expire-cache"}},
			{Name: "disable_gpg_check", Kind: tasks.Bool, Default: false},
			{Name: "autoremove", Kind: tasks.Bool, Default: false},
			{Name: "allow_downgrade", Kind: tasks.Bool, Default: false},
			{Name: "allowerasing", Kind: tasks.Bool, Default: false},
			{Name: "bugfix", Kind: tasks.Bool, Default: false},
			{Name: "security", Kind: tasks.Bool, Default: false},
			{Name: "cacheonly", Kind: tasks.Bool, Default: false},
			{Name: "conf_file"},
			{Name: "disable_excludes"},
			{Name: "disable_plugin", Kind: tasks.List},
			{Name: "enable_plugin", Kind: tasks.List},
			{Name: "download_dir"},
			{Name: "download_only", Kind: tasks.Bool, Default: false},
			{Name: "exclude", Kind: tasks.List},
			// Unused with dnf, as Ansible's dnf; with yum 3, see yumUtils.
			{Name: "install_repoquery", Kind: tasks.Bool, Default: true},
			{Name: "install_weak_deps", Kind: tasks.Bool, Default: true},
			{Name: "installroot", Default: "/"},
			{Name: "lock_timeout", Kind: tasks.Int, Default: 30},
			{Name: "nobest", Kind: tasks.Bool, Default: false},
			{Name: "releasever"},
			{Name: "skip_broken", Kind: tasks.Bool, Default: false},
			{Name: "sslverify", Kind: tasks.Bool, Default: true},
			{Name: "update_only", Kind: tasks.Bool, Default: false},
			{Name: "validate_certs", Kind: tasks.Bool, Default: true},
		},
		MutuallyExclusive: [][]string{{"name", "list"}},
		RequiredOneOf:     [][]string{{"name", "list", "update_cache"}},
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

// Run installs, upgrades or removes the packages, or lists them.
func (m rpmModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	j, res, err := m.job(ctx, env, args)
	if j == nil {
		return res, err
	}
	script := j.script(env.Check, false)
	if j.list != "" {
		script = j.listScript()
	}
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	head, output, _ := strings.Cut(string(out.Stdout), "\n--output--\n")
	lines := strings.Split(head, "\n")
	v := shared.ParseVerdict([]byte(head))
	if v["verdict"] == "list" {
		res = rpmListResult(lines)
	} else {
		res = rpmResult(v, lines, output)
	}
	if v["verdict"] == "noconf" {
		res = tasks.Result{Failed: true, Msg: "cannot read configuration file", Data: map[string]any{"conf_file": j.conf, "results": []any{}}}
	}
	if j.facts != nil {
		if res.Data == nil {
			res.Data = map[string]any{}
		}
		res.Data["ansible_facts"] = j.facts
	}
	return res, nil
}

// rpmJob is what one run of rpmScript (or rpmList) does.
type rpmJob struct {
	tool, state        string
	names, opts        []string
	update, autoremove bool
	// secopts, iopts: see rpmScript; list: list's value.
	secopts, iopts                     []string
	downgrade, updateOnly, dl, visible bool
	conf, root, relver, lockWait, list string
	dlDir                              string
	// repoquery installs yum-utils first when repoquery is missing
	// (yumUtils).
	repoquery bool
	// facts are the facts yum found (pkg_mgr) when it had to probe the
	// host for its backend.
	facts map[string]any
}

// job decodes a task's arguments into the script's inputs. A nil job
// comes with the task's result (a failure) or error.
func (m rpmModule) job(ctx context.Context, env *tasks.Env, args tasks.Args) (*rpmJob, tasks.Result, error) {
	a, err := rpmSpecs[m.tool].Decode(args)
	if err != nil {
		return nil, tasks.Result{}, err
	}
	var facts map[string]any
	if m.tool == "yum" {
		tool, probed, res, err := yumBackend(ctx, env, a.Str("use"), a.Str("use_backend"))
		if tool == "" || err != nil {
			return nil, res, err
		}
		m.tool = tool
		if probed != "" {
			facts = map[string]any{"pkg_mgr": probed}
		}
	}
	if a.Bool("autoremove") && a.Has("state") && a.Str("state") != "absent" {
		// Ansible's check, before state's synonyms are resolved.
		return nil, tasks.Result{Failed: true, Msg: "Autoremove should be used alone or with state=absent", Data: map[string]any{"results": []any{}}}, nil
	}
	j := &rpmJob{tool: m.tool, names: commaSplit(a.Strings("name")), state: a.Str("state"),
		update: a.Bool("update_cache"), autoremove: a.Bool("autoremove"), list: a.Str("list"), facts: facts}
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
	// install_repoquery: Ansible's yum module (yum 3) installs yum-utils
	// when repoquery is missing, outside check mode; its dnf does not.
	j.repoquery = m.tool == "yum" && a.Bool("install_repoquery") && !env.Check
	for _, n := range j.names {
		if strings.ContainsAny(n, "\n\r") || strings.TrimSpace(n) == "" {
			return nil, tasks.Result{}, fmt.Errorf("%s: invalid package name %q", m.tool, n)
		}
		if strings.Contains(n, "://") {
			// Ansible's downloads it (with validate_certs) first.
			return nil, shared.Fail(fmt.Sprintf("%s: a package given as a URL (%s) is not supported by tender: fetch it with get_url, then name the file", m.tool, shared.RedactURL(n))), nil
		}
		if strings.Contains(n, " ") && !strings.ContainsAny(n, "@<>=") {
			return nil, shared.Fail("It appears that a space separated string of packages was passed in as an argument. " +
				"To operate on several packages, pass a comma separated string of packages or a list of packages."), nil
		}
	}
	if err := j.options(a); err != nil {
		return nil, tasks.Result{}, err
	}
	return j, tasks.Result{}, nil
}

// script is rpmScript with j's inputs; deps asks it for the dependencies
// between the packages the transaction changed (for Batch).
func (j *rpmJob) script(check, deps bool) string {
	return j.inputs(check, deps) + rpmPre + j.yumUtils() + rpmFuncs + rpmScript
}

// listScript is rpmList with j's inputs.
func (j *rpmJob) listScript() string { return j.inputs(false, false) + rpmPre + j.yumUtils() + rpmList }

// yumUtils is what Ansible's yum module (yum 3) does for
// install_repoquery before anything else: install yum-utils when no
// repoquery is found, with releasever, its outcome unreported.
func (j *rpmJob) yumUtils() string {
	if !j.repoquery {
		return ""
	}
	return `if ! PATH=$PATH:/sbin:/usr/sbin:/usr/local/sbin command -v repoquery >/dev/null 2>&1; then
	if [ -n "$relver" ]; then yum -y install yum-utils --releasever "$relver"; else yum -y install yum-utils; fi >/dev/null 2>&1
fi
`
}

func (j *rpmJob) inputs(check, deps bool) string {
	lock := ""
	if j.tool == "yum" {
		lock = j.lockWait
	}
	return shared.ShAssign([][2]string{
		{"tool", j.tool}, {"names", strings.Join(j.names, "\n")}, {"state", j.state}, {"opts", strings.Join(j.opts, "\n")},
		{"update", shared.BoolFlag(j.update)}, {"autoremove", shared.BoolFlag(j.autoremove)}, {"_t_check", shared.BoolFlag(check)}, {"deps", shared.BoolFlag(deps)},
		{"secopts", strings.Join(j.secopts, "\n")}, {"iopts", strings.Join(j.iopts, "\n")},
		{"downgrade", shared.BoolFlag(j.downgrade)}, {"updateonly", shared.BoolFlag(j.updateOnly)}, {"dl", shared.BoolFlag(j.dl)},
		{"visible", shared.BoolFlag(j.visible)}, {"conf", j.conf}, {"root", j.root}, {"relver", j.relver},
		{"lockwait", lock}, {"listcmd", j.list}, {"dldir", j.dlDir},
	})
}

func (m rpmModule) Spec() *tasks.Spec { return rpmSpecs[m.tool] }
