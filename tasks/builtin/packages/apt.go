package packages

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// aptModule manages Debian packages with apt-get, as Ansible's apt: one
// round trip decides what differs (dpkg-query, apt-cache policy) and runs
// one apt-get for every package that needs it. A deb that is not on the
// host but is a controller file (found as Ansible finds files) is
// uploaded first, then the script runs again.
type aptModule struct{}

var _ tasks.Module = aptModule{}

var aptArgs = &tasks.Spec{
	Module: "apt",
	Params: []tasks.Param{
		{Name: "state", Default: "present", Choices: []string{"absent", "build-dep", "fixed", "latest", "present"}},
		{Name: "update_cache", Kind: tasks.Bool, Aliases: []string{"update-cache"}},
		{Name: "update_cache_retries", Kind: tasks.Int, Default: 5},
		{Name: "update_cache_retry_max_delay", Kind: tasks.Int, Default: 12},
		{Name: "cache_valid_time", Kind: tasks.Int, Default: 0},
		{Name: "purge", Kind: tasks.Bool, Default: false},
		{Name: "package", Kind: tasks.List, Aliases: []string{"pkg", "name"}},
		{Name: "deb", Kind: tasks.Path},
		{Name: "default_release", Aliases: []string{"default-release"}},
		{Name: "install_recommends", Kind: tasks.Bool, Aliases: []string{"install-recommends"}},
		{Name: "force", Kind: tasks.Bool, Default: false},
		{Name: "upgrade", Default: "no", Choices: []string{"dist", "full", "no", "safe", "yes"}},
		{Name: "clean", Kind: tasks.Bool, Default: false},
		{Name: "autoclean", Kind: tasks.Bool, Default: false},
		{Name: "policy_rc_d", Kind: tasks.Int},
		{Name: "dpkg_options", Default: "force-confdef,force-confold"},
		{Name: "autoremove", Kind: tasks.Bool, Default: false},
		{Name: "only_upgrade", Kind: tasks.Bool, Default: false},
		{Name: "allow_unauthenticated", Kind: tasks.Bool, Default: false, Aliases: []string{"allow-unauthenticated"}},
		{Name: "allow_downgrade", Kind: tasks.Bool, Default: false, Aliases: []string{"allow-downgrade", "allow_downgrades", "allow-downgrades"}},
		{Name: "lock_timeout", Kind: tasks.Int, Default: 60},
		{Name: "fail_on_autoremove", Kind: tasks.Bool, Default: false},
		{Name: "allow_change_held_packages", Kind: tasks.Bool, Default: false},
		// tender always uses apt-get, never aptitude.
		{Name: "force_apt_get", Kind: tasks.Bool, Default: false},
	},
	MutuallyExclusive: [][]string{{"deb", "package", "upgrade"}},
	// upgrade's default satisfies it always, as in Ansible.
	RequiredOneOf: [][]string{{"autoremove", "deb", "package", "update_cache", "upgrade"}},
}

// aptJob is one apt task's decoded arguments.
type aptJob struct {
	state, deb, release string
	specs               []string
	update              bool
	// upgrade is apt-get's upgrade mode (dist, full, yes, safe), or "";
	// allFail: name=* with state=latest named other packages too.
	upgrade     string
	allFail     bool
	check, diff bool
	a           tasks.Values
	// uploadDir is the host's temporary directory holding a deb sent
	// from the controller, removed when the script ends.
	uploadDir string
}

// Run installs, upgrades or removes the packages.
func (aptModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := aptArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j := aptJob{state: a.Str("state"), deb: a.Str("deb"), release: a.Str("default_release"),
		update: a.Bool("update_cache") || a.Int("cache_valid_time") > 0, check: env.Check, diff: env.Diff, a: a}
	if u := a.Str("upgrade"); u != "no" {
		j.upgrade = u
	}
	switch j.state {
	case "build-dep", "fixed":
		return tasks.Result{}, fmt.Errorf("state=%s is not supported by tender's apt", j.state)
	}
	if j.deb != "" && j.state != "present" {
		return shared.Fail("deb only supports state=present"), nil
	}
	pkgs := a.Strings("package")
	if j.state == "latest" && slices.Contains(pkgs, "*") {
		// Every installed package, as Ansible: upgrade=yes.
		j.upgrade, j.allFail = "yes", slices.ContainsFunc(pkgs, func(p string) bool { return p != "*" })
		pkgs = nil
	}
	for _, p := range pkgs {
		p = strings.TrimSpace(p)
		if p == "*" {
			return tasks.Result{}, fmt.Errorf("apt: name '*' is supported by tender with state=latest only (upgrade every package)")
		}
		if strings.Count(p, "=") > 1 {
			return shared.Fail("invalid package spec: " + p), nil
		}
		if strings.ContainsAny(p, "\n\r") {
			return shared.Fail(fmt.Sprintf("No package matching '%s' is available", p)), nil
		}
		j.specs = append(j.specs, p)
	}
	if len(j.specs) == 0 && j.deb == "" && !j.update && j.upgrade == "" &&
		!a.Bool("autoremove") && !a.Bool("autoclean") && !a.Bool("clean") {
		return tasks.Result{Data: map[string]any{}}, nil
	}
	out, err := shared.RunSplitLib(ctx, env, j.script(j.deb), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, output := shared.SplitOutput(out.Stdout)
	if v["verdict"] == "upload" {
		out, err = j.upload(ctx, env)
		if err != nil {
			return tasks.Result{}, err
		}
		v, output = shared.SplitOutput(out.Stdout)
	}
	if v["verdict"] == "" {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}, nil
	}
	return j.result(v, output), nil
}

// upload copies the deb from the controller to a temporary file on the
// host and runs the script on it.
func (j aptJob) upload(ctx context.Context, env *tasks.Env) (transport.Result, error) {
	local, err := env.FindFile("files", j.deb)
	if err != nil {
		return transport.Result{}, fmt.Errorf("deb %s is neither on the host nor on the controller: %w", j.deb, err)
	}
	f, err := env.Sandbox.Open(local)
	if err != nil {
		return transport.Result{}, err
	}
	defer f.Close()
	mk, err := shared.Run(ctx, env, "mktemp -d", nil)
	if err != nil {
		return transport.Result{}, err
	}
	dir := strings.TrimSpace(string(mk.Stdout))
	if mk.ExitCode != 0 || dir == "" {
		return transport.Result{}, fmt.Errorf("could not make a temporary directory on the host: %s", shared.ScriptError(mk))
	}
	base := local[strings.LastIndex(local, "/")+1:]
	remote := dir + "/" + base
	if err := env.Conn.Put(ctx, remote, f, 0o644); err != nil {
		return transport.Result{}, err
	}
	j.uploadDir = dir
	return shared.RunSplitLib(ctx, env, j.script(remote), nil)
}

func (j aptJob) script(deb string) shared.Lib {
	a := j.a
	recommends := ""
	if a.Has("install_recommends") {
		recommends = "no"
		if a.Bool("install_recommends") {
			recommends = "yes"
		}
	}
	policy := ""
	if a.Has("policy_rc_d") {
		policy = strconv.Itoa(a.Int("policy_rc_d"))
	}
	return shared.Lib{Pieces: aptLib, Script: shared.ShAssign([][2]string{
		{"specs", strings.Join(j.specs, "\n")}, {"state", j.state}, {"update", shared.BoolFlag(j.update)},
		{"valid", strconv.Itoa(a.Int("cache_valid_time"))}, {"retries", strconv.Itoa(max(1, a.Int("update_cache_retries")))},
		{"maxdelay", strconv.Itoa(a.Int("update_cache_retry_max_delay"))}, {"deb", deb}, {"release", j.release},
		{"recommends", recommends}, {"purge", shared.BoolFlag(a.Bool("purge"))}, {"force", shared.BoolFlag(a.Bool("force"))},
		{"autoremove", shared.BoolFlag(a.Bool("autoremove"))}, {"downgrade", shared.BoolFlag(a.Bool("allow_downgrade"))},
		{"unauth", shared.BoolFlag(a.Bool("allow_unauthenticated"))}, {"onlyup", shared.BoolFlag(a.Bool("only_upgrade"))},
		{"noremove", shared.BoolFlag(a.Bool("fail_on_autoremove"))}, {"held", shared.BoolFlag(a.Bool("allow_change_held_packages"))},
		{"dpkgopts", a.Str("dpkg_options")}, {"locktime", strconv.Itoa(a.Int("lock_timeout"))}, {"_t_check", shared.BoolFlag(j.check)},
		{"upload", j.uploadDir}, {"upgrade", j.upgrade}, {"allfail", shared.BoolFlag(j.allFail)},
		{"clean", shared.BoolFlag(a.Bool("clean"))}, {"autoclean", shared.BoolFlag(a.Bool("autoclean"))}, {"policy", policy},
	}) + "_t_apt_main\n"}
}

// aptLib is apt.sh as a Lib piece.
var aptLib = []string{shared.MainFunc("_t_apt_main", aptScript)}

// result builds what Ansible's apt returns for the script's verdict.
func (j aptJob) result(v shared.Verdict, output string) tasks.Result {
	cache := func(d map[string]any) map[string]any {
		d["cache_updated"] = v["cache_updated"] == "1"
		n, _ := strconv.ParseInt(v["cache_update_time"], 10, 64)
		d["cache_update_time"] = n
		return d
	}
	var res tasks.Result
	if w := v["warning"]; w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	switch v["verdict"] {
	case "failed":
		res.Failed, res.Msg, res.Data = true, v["msg"], map[string]any{}
		if v["cache"] == "1" {
			cache(res.Data)
		}
		return res
	case "cacheonly":
		res.Data = cache(map[string]any{})
		res.Changed = res.Data["cache_updated"].(bool)
		return res
	case "cleaned":
		stdout := output
		res.Data = map[string]any{"stdout": stdout, "stderr": "", "stdout_lines": shared.Lines(stdout), "stderr_lines": []any{}, "diff": map[string]any{}}
		marker := "The following packages will be REMOVED"
		if v["op"] == "autoclean" {
			marker = "Del " // "Del python3-q 2.4-1 [24 kB]"
		}
		res.Changed = strings.Contains(stdout, marker)
		return res
	case "upgraded":
		return j.upgradeResult(v, output)
	case "noop":
		switch {
		case j.deb != "":
			res.Data = map[string]any{"stdout": "", "stderr": "", "stdout_lines": []any{}, "stderr_lines": []any{}, "diff": ""}
		case j.state == "absent":
			res.Data = map[string]any{}
		default:
			res.Data = cache(map[string]any{})
		}
		return res
	}
	outLen, _ := strconv.Atoi(v["outlen"])
	outLen = min(max(outLen, 0), len(output))
	stdout, stderr := output[:outLen], output[outLen:]
	rc, _ := strconv.Atoi(v["rc"])
	data := map[string]any{"stdout": stdout, "stderr": stderr, "stdout_lines": shared.Lines(stdout), "stderr_lines": shared.Lines(stderr)}
	res.Stdout, res.Stderr, res.Data = stdout, stderr, data
	if j.deb != "" {
		if rc != 0 {
			res.Failed, res.Msg = true, v["cmd"]+" failed"
			return res
		}
		data["diff"] = aptDiff(stdout)
		res.Changed = true
		return res
	}
	if rc != 0 {
		res.Failed, res.RC = true, rc
		data["rc"] = rc
		if j.state == "absent" {
			res.Msg = fmt.Sprintf("'apt-get remove%s' failed: %s", v["what"], stderr)
		} else {
			res.Msg = fmt.Sprintf("'%s' failed: %s", v["cmd"], stderr)
			cache(data)
		}
		return res
	}
	res.Changed = true
	data["diff"] = map[string]any{}
	if j.diff {
		d := aptDiff(stdout)
		data["diff"] = d
		res.Diff = d["prepared"].(string)
	}
	if j.state != "absent" {
		cache(data)
	}
	return res
}

var aptSummary = regexp.MustCompile(`^[0-9]+ (packages )?upgraded`)

// aptDiff is the "prepared" summary Ansible cuts from apt-get's output:
// from after "Reading state information..." to the "N upgraded" line.
func aptDiff(out string) map[string]any {
	ls := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	if strings.HasSuffix(out, "\n") {
		ls = ls[:len(ls)-1]
	}
	start := -1
	for i, l := range ls {
		if l == "Reading state information..." {
			start = i
			break
		}
	}
	end := len(ls)
	for i, l := range ls {
		if aptSummary.MatchString(l) {
			end = i + 1
			break
		}
	}
	start++
	if start > end {
		start = end
	}
	return map[string]any{"prepared": strings.Join(ls[start:end], "\n")}
}

func (aptModule) Spec() *tasks.Spec { return aptArgs }
