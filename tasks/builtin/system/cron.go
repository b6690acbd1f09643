package system

import (
	"context"
	_ "embed"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// cronModule manages one job or variable of a user's crontab (through the
// crontab command) or of a cron file, as Ansible's cron module does, with
// the same "#Ansible: NAME" marker lines. One round trip reads; a second
// writes, only when something changes.
type cronModule struct{}

var _ tasks.Module = (*cronModule)(nil)

var cronArgs = &tasks.Spec{
	Module: "cron",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "user"},
		{Name: "job", Aliases: []string{"value"}},
		{Name: "cron_file", Kind: tasks.Path},
		{Name: "state", Default: "present", Choices: []string{"present", "absent"}},
		{Name: "minute", Default: "*"},
		{Name: "hour", Default: "*"},
		{Name: "day", Default: "*", Aliases: []string{"dom"}},
		{Name: "month", Default: "*"},
		{Name: "weekday", Default: "*", Aliases: []string{"dow"}},
		{Name: "special_time", Choices: []string{"reboot", "yearly", "annually", "monthly", "weekly", "daily", "hourly"}},
		{Name: "disabled", Kind: tasks.Bool, Default: false},
		{Name: "env", Kind: tasks.Bool, Default: false},
		{Name: "insertafter"},
		{Name: "insertbefore"},
	},
	MutuallyExclusive: [][]string{{"insertafter", "insertbefore"}},
}

// cronReadScript prints the cron file $f, or the crontab of $user (the
// login user's when empty) after the content marker, with its md5.
var cronReadScript = shared.MarkVars + cronReadScriptBody

//go:embed cron_read.sh
var cronReadScriptBody string

// cronWriteScript installs the script's stdin as $user's crontab, unless
// the crontab changed since it was read (md5 $before).
//
//go:embed cron_write.sh
var cronWriteScript string

var cronFileName = regexp.MustCompile(`(?i)^[A-Z0-9_-]+$`)

// Run adds, changes or removes the job or variable.
func (cronModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := cronArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, user, job, state := a.Str("name"), a.Str("user"), a.Str("job"), a.Str("state")
	cronFile := a.Str("cron_file")
	fail := func(msg string) (tasks.Result, error) {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	var warnings []string
	file := ""
	if cronFile != "" {
		if cronFile == "/etc/crontab" {
			return fail("Will not manage /etc/crontab via cron_file, see documentation.")
		}
		if base := path.Base(cronFile); !cronFileName.MatchString(base) {
			warnings = append(warnings, fmt.Sprintf(`Filename portion of cron_file ("%s") should consist solely of upper- and lower-case letters, digits, underscores, and hyphens`, base))
		}
		file = cronFile
		if !strings.HasPrefix(file, "/") && !strings.HasPrefix(file, "~") {
			file = path.Join("/etc/cron.d", file)
		}
	}
	special := a.Str("special_time")
	if special != "" {
		for _, k := range []string{"minute", "hour", "day", "month", "weekday"} {
			if a.Str(k) != "*" {
				return fail("You must specify time and date fields or special time.")
			}
		}
	}
	install := state == "present"
	if install {
		if cronFile != "" && user == "" {
			return fail("To use cron_file=... parameter you must specify user=... as well")
		}
		if !a.Has("job") {
			return fail("You must specify 'job' to install a new cron job or variable")
		}
		if (a.Has("insertafter") || a.Has("insertbefore")) && !a.Bool("env") {
			return fail("Insertafter and insertbefore parameters are valid only with env=yes")
		}
	}
	if a.Bool("env") && strings.Contains(name, " ") {
		return fail("Invalid name for environment variable")
	}

	script := fmt.Sprintf("f=%s\nuser=%s\n%s", shared.ShPath(file), shared.Q(user), cronReadScript)
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, existing := shared.SplitContent(res.Stdout)
	if v["fail"] != "" {
		return fail(v["fail"])
	}
	if res.ExitCode != 0 {
		return fail(shared.ScriptError(res))
	}
	var ct *crontab
	if file != "" {
		ct = &crontab{lines: splitPyLines(existing)}
	} else {
		ct, existing = parseUserCrontab(existing)
	}
	ct.file, ct.user = file != "", user
	header := "crontab"
	switch {
	case file != "":
		header = file
	case user != "":
		header = fmt.Sprintf("crontab for user \"%s\"", user)
	}
	diff := map[string]any{"before": existing, "before_header": header}

	changed := false
	if a.Bool("env") {
		decl := fmt.Sprintf(`%s="%s"`, name, job)
		i, old, found := ct.findEnv(name)
		_ = i
		switch {
		case install && !found:
			other := a.Str("insertafter") + a.Str("insertbefore")
			if other == "" {
				ct.insert(0, decl)
			} else if j, _, ok := ct.findEnv(other); ok {
				if a.Has("insertafter") {
					j++
				}
				ct.insert(j, decl)
			} else {
				return fail(fmt.Sprintf("Variable named '%s' not found.", other))
			}
			changed = true
		case install && old != decl:
			ct.updateEnv(name, decl, false)
			changed = true
		case !install && found:
			ct.updateEnv(name, "", true)
			changed = true
		}
	} else if install {
		if strings.ContainsAny(strings.Trim(job, "\r\n"), "\r\n") {
			warnings = append(warnings, "Job should not contain line breaks")
		}
		line := ct.jobLine(a.Str("minute"), a.Str("hour"), a.Str("day"), a.Str("month"), a.Str("weekday"), job, special, a.Bool("disabled"))
		_, old, found, adopted := ct.findJob(name, line)
		switch {
		case !found:
			ct.lines = append(ct.lines, cronMarker+name, line)
			changed = true
		case old != line || adopted:
			ct.updateJob(name, line, false)
			changed = true
		}
	} else if _, _, found, _ := ct.findJob(name, ""); found {
		ct.updateJob(name, "", true)
		changed = true
		if file != "" && ct.empty() {
			return removeCronFile(ctx, env, cronFile, file, state, diff)
		}
	}
	if !changed && existing != "" && !strings.HasSuffix(existing, "\n") && !strings.HasSuffix(existing, "\r") {
		changed = true
	}
	data := map[string]any{"jobs": ct.jobNames(), "envs": ct.envNames()}
	if cronFile != "" {
		data["cron_file"] = cronFile
	}
	r := shared.WithWarnings(tasks.Result{Changed: changed, Data: data, Warnings: warnings})
	if !changed {
		return r, nil
	}
	after := ct.render()
	if env.Diff {
		diff["after"], diff["after_header"] = after, header
		data["diff"] = diff
		r.Diff = shared.UnifiedDiff(header, existing, after)
	}
	if env.Check {
		return r, nil
	}
	var msg string
	if file != "" {
		msg, _, err = shared.WriteText(ctx, env, file, after, existing, v["exists"] == "1", shared.ShAssign([][2]string{{"mode", "0644"}}))
	} else {
		msg, err = writeCrontab(ctx, env, user, v["sum"], after)
	}
	if err != nil {
		return tasks.Result{}, err
	}
	if msg != "" {
		return fail(msg)
	}
	return r, nil
}

// writeCrontab installs content as user's crontab with the crontab
// command, unless it changed since it read with md5 before.
func writeCrontab(ctx context.Context, env *tasks.Env, user, before, content string) (string, error) {
	script := fmt.Sprintf("user=%s\nbefore=%s\n%s", shared.Q(user), shared.Q(before), cronWriteScript)
	res, err := shared.Run(ctx, env, script, strings.NewReader(content))
	if err != nil {
		return "", err
	}
	v := shared.ParseVerdict(res.Stdout)
	if v["written"] == "1" {
		return "", nil
	}
	if v["fail"] != "" {
		return v["fail"], nil
	}
	return shared.ScriptError(res), nil
}

// removeCronFile removes a cron file whose last job was removed, as
// Ansible does, and returns Ansible's short result for it.
func removeCronFile(ctx context.Context, env *tasks.Env, cronFile, file, state string, diff map[string]any) (tasks.Result, error) {
	if env.Diff {
		diff["after"], diff["after_header"] = "", "/dev/null"
	} else {
		diff = map[string]any{}
	}
	script := "f=" + shared.ShPath(file) + "\n" + shared.ShAssign([][2]string{{"check", shared.BoolFlag(env.Check)}}) + cronRemoveScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	changed := shared.ParseVerdict(res.Stdout)["removed"] == "1"
	r := tasks.Result{Changed: changed, Data: map[string]any{"cron_file": cronFile, "state": state, "diff": diff}}
	if env.Diff && changed {
		r.Diff = shared.UnifiedDiff(file, diff["before"].(string), "")
	}
	return r, nil
}

func (cronModule) Spec() *tasks.Spec { return cronArgs }

// cronRemoveScript removes a cron file (state=absent with cron_file).
//
//go:embed cron_remove.sh
var cronRemoveScript string
