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
		{Name: "backup", Kind: tasks.Bool, Default: false},
	},
	MutuallyExclusive: [][]string{{"insertafter", "insertbefore"}},
}

// cronReadScript prints the cron file $f, or the crontab of $user (the
// login user's when empty) after the content marker (its MD5, which the write
// checks, is taken by the controller).
var cronReadScript = shared.MarkVars + cronReadScriptBody

//go:embed cron_read.sh
var cronReadScriptBody string

// cronWriteScript installs the script's stdin as $user's crontab, unless
// the crontab changed since it was read (md5 $before).
//
//go:embed cron_write.sh
var cronWriteScript string

var cronFileName = regexp.MustCompile(`(?i)^[A-Z0-9_-]+$`)

// cronJob is one cron task: its decoded arguments, then the crontab or
// cron file as read from the host and as the task would leave it.
type cronJob struct {
	a                       tasks.Values
	name, user, job, state  string
	cronFile, file, special string
	install, env            bool
	warnings                []string
	// Set by read: the read script's verdict, the content as read (a
	// user crontab without its header), the parsed crontab, the diff's
	// header and Ansible's diff data.
	v        shared.Verdict
	existing string
	ct       *crontab
	header   string
	diff     map[string]any
	// after is the content to write, set by plan when it changes.
	after string
}

// Run adds, changes or removes the job or variable.
func (cronModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := cronArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad := decodeCron(a)
	if bad != nil {
		return *bad, nil
	}
	if r, done, err := j.read(ctx, env); done || err != nil {
		return r, err
	}
	before := j.ct.render()
	changed, remove, msg := j.plan()
	switch {
	case msg != "":
		return shared.Fail(msg), nil
	case remove:
		return removeCronFile(ctx, env, j.cronFile, j.file, j.state, j.diff)
	}
	r := j.result(changed, env.Diff)
	if !changed || env.Check {
		return r, nil
	}
	if a.Bool("backup") {
		// As Ansible: the crontab as it was, kept only when it changes.
		b, fail, err := backupCrontab(ctx, env, before)
		if err != nil || fail != "" {
			return shared.Fail(fail), err
		}
		r.Data["backup_file"] = b
	}
	return j.write(ctx, env, r)
}

// cronBackupScript saves its stdin to a new private crontab... file in
// the host's temporary directory and prints its path.
//
//go:embed cron_backup.sh
var cronBackupScript string

// backupCrontab saves content (the crontab before the task changes it)
// on the host, as Ansible's backup does, and returns the file's path, or
// the failure.
func backupCrontab(ctx context.Context, env *tasks.Env, content string) (path, fail string, err error) {
	res, err := shared.Run(ctx, env, cronBackupScript, strings.NewReader(content))
	if err != nil {
		return "", "", err
	}
	v := shared.ParseVerdict(res.Stdout)
	switch {
	case v["backup_file"] != "":
		return v["backup_file"], "", nil
	case v["fail"] != "":
		return "", v["fail"], nil
	}
	return "", shared.ScriptError(res), nil
}

// decodeCron checks the decoded arguments and returns the task's job, or
// the failed result Ansible gives for them.
func decodeCron(a tasks.Values) (cronJob, *tasks.Result) {
	j := cronJob{a: a, name: a.Str("name"), user: a.Str("user"), job: a.Str("job"), state: a.Str("state"),
		cronFile: a.Str("cron_file"), special: a.Str("special_time"), env: a.Bool("env")}
	j.install = j.state == "present"
	fail := func(msg string) (cronJob, *tasks.Result) {
		r := shared.Fail(msg)
		return cronJob{}, &r
	}
	if j.cronFile != "" {
		if j.cronFile == "/etc/crontab" {
			return fail("Will not manage /etc/crontab via cron_file, see documentation.")
		}
		if base := path.Base(j.cronFile); !cronFileName.MatchString(base) {
			j.warnings = append(j.warnings, fmt.Sprintf(`Filename portion of cron_file ("%s") should consist solely of upper- and lower-case letters, digits, underscores, and hyphens`, base))
		}
		j.file = j.cronFile
		if !strings.HasPrefix(j.file, "/") && !strings.HasPrefix(j.file, "~") {
			j.file = path.Join("/etc/cron.d", j.file)
		}
	}
	if j.special != "" {
		for _, k := range []string{"minute", "hour", "day", "month", "weekday"} {
			if a.Str(k) != "*" {
				return fail("You must specify time and date fields or special time.")
			}
		}
	}
	if j.install {
		if j.cronFile != "" && j.user == "" {
			return fail("To use cron_file=... parameter you must specify user=... as well")
		}
		if !a.Has("job") {
			return fail("You must specify 'job' to install a new cron job or variable")
		}
		if (a.Has("insertafter") || a.Has("insertbefore")) && !j.env {
			return fail("Insertafter and insertbefore parameters are valid only with env=yes")
		}
	}
	if j.env && strings.Contains(j.name, " ") {
		return fail("Invalid name for environment variable")
	}
	return j, nil
}

// read fetches the cron file or the user's crontab in one round trip and
// parses it; done is set, with the failed result, when it cannot be read.
func (j *cronJob) read(ctx context.Context, env *tasks.Env) (r tasks.Result, done bool, err error) {
	script := fmt.Sprintf("f=%s\nuser=%s\n%s", shared.ShPath(j.file), shared.Q(j.user), cronReadScript)
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, true, err
	}
	j.v, j.existing = shared.SplitContent(res.Stdout)
	if j.v["fail"] != "" {
		return shared.Fail(j.v["fail"]), true, nil
	}
	if res.ExitCode != 0 {
		return shared.Fail(shared.ScriptError(res)), true, nil
	}
	if j.file != "" {
		j.ct = &crontab{lines: splitPyLines(j.existing)}
	} else {
		// what the write checks the crontab against: the MD5 of the
		// bytes crontab -l gave, as they came after the content mark
		j.v["sum"] = shared.Md5hex([]byte(j.existing))
		j.ct, j.existing = parseUserCrontab(j.existing)
	}
	j.ct.file, j.ct.user = j.file != "", j.user
	j.header = "crontab"
	switch {
	case j.file != "":
		j.header = j.file
	case j.user != "":
		j.header = fmt.Sprintf("crontab for user \"%s\"", j.user)
	}
	j.diff = map[string]any{"before": j.existing, "before_header": j.header}
	return tasks.Result{}, false, nil
}

// plan edits the parsed crontab as the task asks, without I/O, and sets
// j.after when it changes. remove is set when an absent job leaves its
// cron file empty; msg is a failure message.
func (j *cronJob) plan() (changed, remove bool, msg string) {
	switch {
	case j.env:
		changed, msg = j.planEnv()
		if msg != "" {
			return false, false, msg
		}
	case j.install:
		changed = j.planJob()
	default:
		if _, _, found, _ := j.ct.findJob(j.name, ""); found {
			j.ct.updateJob(j.name, "", true)
			changed = true
			if j.file != "" && j.ct.empty() {
				return true, true, ""
			}
		}
	}
	if !changed && j.existing != "" && !strings.HasSuffix(j.existing, "\n") && !strings.HasSuffix(j.existing, "\r") {
		changed = true
	}
	if changed {
		j.after = j.ct.render()
	}
	return changed, false, ""
}

// planEnv adds, changes or removes the environment variable in the
// crontab; msg names a missing insertafter or insertbefore variable.
func (j *cronJob) planEnv() (changed bool, msg string) {
	a, ct := j.a, j.ct
	decl := fmt.Sprintf(`%s="%s"`, j.name, j.job)
	_, old, found := ct.findEnv(j.name)
	switch {
	case j.install && !found:
		other := a.Str("insertafter") + a.Str("insertbefore")
		if other == "" {
			ct.insert(0, decl)
		} else if i, _, ok := ct.findEnv(other); ok {
			if a.Has("insertafter") {
				i++
			}
			ct.insert(i, decl)
		} else {
			return false, fmt.Sprintf("Variable named '%s' not found.", other)
		}
		return true, ""
	case j.install && old != decl:
		ct.updateEnv(j.name, decl, false)
		return true, ""
	case !j.install && found:
		ct.updateEnv(j.name, "", true)
		return true, ""
	}
	return false, ""
}

// planJob adds or changes the job in the crontab, warning about a job
// with line breaks.
func (j *cronJob) planJob() bool {
	a, ct := j.a, j.ct
	if strings.ContainsAny(strings.Trim(j.job, "\r\n"), "\r\n") {
		j.warnings = append(j.warnings, "Job should not contain line breaks")
	}
	line := ct.jobLine(a.Str("minute"), a.Str("hour"), a.Str("day"), a.Str("month"), a.Str("weekday"), j.job, j.special, a.Bool("disabled"))
	_, old, found, adopted := ct.findJob(j.name, line)
	switch {
	case !found:
		ct.lines = append(ct.lines, cronMarker+j.name, line)
		return true
	case old != line || adopted:
		ct.updateJob(j.name, line, false)
		return true
	}
	return false
}

// result is the task's result for the planned crontab: its job and
// variable names, the warnings and, when diff is on and it changes, the
// diff.
func (j *cronJob) result(changed, diff bool) tasks.Result {
	data := map[string]any{"jobs": j.ct.jobNames(), "envs": j.ct.envNames()}
	if j.cronFile != "" {
		data["cron_file"] = j.cronFile
	}
	r := shared.WithWarnings(tasks.Result{Changed: changed, Data: data, Warnings: j.warnings})
	if changed && diff {
		j.diff["after"], j.diff["after_header"] = j.after, j.header
		data["diff"] = j.diff
		r.Diff = shared.UnifiedDiff(j.header, j.existing, j.after)
	}
	return r
}

// write installs the planned content in the second round trip and
// returns r, or the failed result when the host refused it.
func (j *cronJob) write(ctx context.Context, env *tasks.Env, r tasks.Result) (tasks.Result, error) {
	var msg string
	var err error
	if j.file != "" {
		msg, _, err = shared.WriteText(ctx, env, j.file, j.after, j.existing, j.v["exists"] == "1", shared.ShAssign([][2]string{{"mode", "0644"}}))
	} else {
		msg, err = writeCrontab(ctx, env, j.user, j.v["sum"], j.after)
	}
	if err != nil {
		return tasks.Result{}, err
	}
	if msg != "" {
		return shared.Fail(msg), nil
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
