package system

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// timezoneModule sets the host's time zone and whether its hardware clock
// keeps local time or UTC, as community.general's timezone module does on
// Linux: with timedatectl where it runs (set-timezone, set-local-rtc),
// else by the files of the host's family: /etc/timezone, the
// /etc/localtime link (ln, then dpkg-reconfigure tzdata) and UTC= in
// /etc/default/rcS on Debian; ZONE= or TIMEZONE= and UTC= in
// /etc/sysconfig/clock on RedHat and SUSE (cp or tzdata-update);
// /etc/conf.d/hwclock on Alpine (setup-timezone) and Gentoo; hwclock
// --systohc for the hardware clock, with /etc/adjtime read back. Other
// systems (BSD, macOS, SmartOS, AIX) are refused. It returns the diff of
// the values before and after; one round trip in check mode and when
// nothing changes, two when something does (the second applies and reads
// back) and always two with timedatectl out of check mode, which reads
// its status again as the module does.
type timezoneModule struct{}

var _ tasks.Module = (*timezoneModule)(nil)

var timezoneArgs = &tasks.Spec{
	Module: "timezone",
	Params: []tasks.Param{
		{Name: "hwclock", Choices: []string{"local", "UTC"}, Aliases: []string{"rtc"}},
		{Name: "name"},
	},
	RequiredOneOf: [][]string{{"hwclock", "name"}},
}

// timezoneScript probes ($round probe) or applies the planned steps and
// reads the state back ($round apply).
//
//go:embed timezone.sh
var timezoneScript string

// tzJob is one timezone task: the values asked for, in the module's order
// (hwclock, then name), and what was learnt of the host.
type tzJob struct {
	keys    []string
	planned map[string]string
	probe   tzHost
	flavor  tzFlavor
	steps   []tzStep // the apply round's steps
	msgs    []string
}

// Run sets the zone and the hardware clock.
func (timezoneModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := timezoneArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j := &tzJob{planned: map[string]string{}}
	for _, k := range []string{"hwclock", "name"} {
		if _, ok := a[k]; ok {
			j.keys = append(j.keys, k)
			j.planned[k] = a.Str(k)
		}
	}
	h, fail, err := j.run(ctx, env, "probe", "")
	if err != nil || fail != nil {
		return deref(fail), err
	}
	if h.v["os"] != "Linux" {
		return shared.Fail(fmt.Sprintf("timezone: tender manages the time zone of Linux hosts only; this host runs %s", h.v["os"])), nil
	}
	j.probe = h
	if r := j.setup(); r != nil {
		return *r, nil
	}
	before, err := j.values(h, "before")
	if err != nil {
		return j.failure(err), nil
	}
	after := j.planned
	if !env.Check {
		var r *tasks.Result
		if after, r, err = j.apply(ctx, env, before); err != nil || r != nil {
			return deref(r), err
		}
	}
	b, af := map[string]any{}, map[string]any{}
	for _, k := range j.keys {
		b[k], af[k] = before[k], after[k]
	}
	r := tasks.Result{Changed: !tzEqual(j.keys, before, after), Data: map[string]any{"diff": map[string]any{"before": b, "after": af}}}
	if len(j.msgs) > 0 {
		r.Data["msg"] = strings.Join(j.msgs, "\n")
	}
	r.ShowDiff(env.Diff)
	return r, nil
}

// apply changes what differs and reads the values back, as the module
// does when not in check mode (reading timedatectl's status again, in a
// second round trip, even when nothing changed); a failure is the
// returned result.
func (j *tzJob) apply(ctx context.Context, env *tasks.Env, before map[string]string) (map[string]string, *tasks.Result, error) {
	if tzEqual(j.keys, before, j.planned) && j.probe.v["impl"] != "systemd" {
		return before, nil, nil // the files read back would be the same
	}
	// (with timedatectl, its status is read again even when nothing changed)
	steps, script := j.plan(before)
	j.steps = steps
	h, fail, err := j.run(ctx, env, "apply", script)
	if err != nil {
		return nil, nil, err
	}
	j.msgs = stepMsgs(steps, h.v["done"])
	if fail != nil {
		return nil, fail, nil
	}
	if h.v["fail"] == "write" {
		s := steps[shared.Atoi(h.v["step"])]
		r := j.failure(&tzAbort{fmt.Sprintf(`tried to configure %s using a file "%s", but could not write to it`, s.key, s.file)})
		return nil, &r, nil
	}
	after, err := j.values(h, "after")
	if err != nil {
		r := j.failure(err)
		return nil, &r, nil
	}
	if !tzEqual(j.keys, after, j.planned) {
		r := j.failure(&tzAbort{fmt.Sprintf("still not desired state, though changes have made - planned: %s, after: %s",
			tzRepr(j.keys, j.planned), tzRepr(j.keys, after))})
		return nil, &r, nil
	}
	return after, nil, nil
}

// deref is *r, or a zero result.
func deref(r *tasks.Result) tasks.Result {
	if r == nil {
		return tasks.Result{}
	}
	return *r
}

// setup checks what the module's set-up checks, in its order: the zone,
// then the programs the chosen way needs; it picks the file-based flavor.
func (j *tzJob) setup() *tasks.Result {
	v := j.probe.v
	_, hasName := j.planned["name"]
	if hasName && v["zone"] != "1" {
		r := j.failure(&tzAbort{fmt.Sprintf(`given timezone "%s" is not available`, j.planned["name"])})
		return &r
	}
	if v["impl"] == "systemd" {
		return nil
	}
	if hasName && v["bin_cp"] == "" {
		r := j.failure(missingBin("cp", v["paths"]))
		return &r
	}
	if v["bin_hwclock"] == "" {
		r := j.failure(missingBin("hwclock", v["paths"]))
		return &r
	}
	f, err := flavorFor(j.probe, hasName, j.planned["name"])
	if err != nil {
		r := j.failure(err)
		return &r
	}
	j.flavor = f
	return nil
}

// values reads every asked key's value from one round's probe.
func (j *tzJob) values(h tzHost, phase string) (map[string]string, error) {
	out := map[string]string{}
	for _, k := range j.keys {
		var val string
		var err error
		if j.probe.v["impl"] == "systemd" {
			val, err = systemdValue(h.blobs["status"], k)
		} else {
			val, err = fileValue(h, j.flavor, k, j.planned[k], phase)
		}
		if err != nil {
			return nil, err
		}
		out[k] = val
	}
	return out, nil
}

// tzStep is one step of the change: a file written or a command run.
type tzStep struct {
	key, file, content string
	argv               []string
	msg                string // what the module says of it, "" for nothing
}

// plan lists the steps that bring each differing key to its planned
// value, and renders them as script lines.
func (j *tzJob) plan(before map[string]string) ([]tzStep, string) {
	var steps []tzStep
	v := j.probe.v
	texts := map[string]string{}
	edit := func(key string, c tzConf, value string) {
		text, ok := texts[c.path]
		if !ok {
			text = j.probe.blobs[c.blob]
		}
		line := fmt.Sprintf(c.format, value)
		next, n := editConf(text, c.re, line)
		texts[c.path] = next
		steps = append(steps, tzStep{key: key, file: c.path, content: next,
			msg: fmt.Sprintf("Added 1 line and deleted %d line(s) on %s", n, c.path)})
	}
	for _, k := range j.keys {
		want := j.planned[k]
		if before[k] == want {
			continue
		}
		if v["impl"] == "systemd" {
			sub, val := "set-timezone", want
			if k == "hwclock" {
				sub, val = "set-local-rtc", map[bool]string{true: "yes", false: "no"}[want == "local"]
			}
			argv := []string{v["tdc"], sub, val}
			steps = append(steps, tzStep{key: k, argv: argv, msg: "executed `" + strings.Join(argv, " ") + "`"})
			continue
		}
		if k == "hwclock" {
			opt, utc := "--utc", "yes"
			if want == "local" {
				opt, utc = "--localtime", "no"
			}
			if j.flavor.hasHwclock {
				edit(k, j.flavor.hwclock, utc)
			}
			argv := []string{v["bin_hwclock"], "--systohc", opt}
			steps = append(steps, tzStep{key: k, argv: argv, msg: "executed `" + strings.Join(argv, " ") + "`"})
			continue
		}
		edit(k, j.flavor.name, want)
		for _, argv := range j.flavor.update {
			steps = append(steps, tzStep{key: k, argv: argv})
		}
	}
	var b strings.Builder
	for i, s := range steps {
		if s.argv == nil {
			fmt.Fprintf(&b, "_tz_write %d %s %s\n", i, shared.Q(s.file), shared.Q(s.content))
			continue
		}
		fmt.Fprintf(&b, "_tz_run %d %s\n", i, strings.Join(quoteAll(s.argv), " "))
	}
	b.WriteString("_tz_read\n")
	return steps, b.String()
}

// quoteAll quotes every word for the shell.
func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shared.Q(w)
	}
	return out
}

// stepMsgs are the messages of the steps done, up to the last reported.
func stepMsgs(steps []tzStep, last string) []string {
	var msgs []string
	if last == "" {
		return nil
	}
	n, _ := strconv.Atoi(last)
	for i := 0; i <= n && i < len(steps); i++ {
		if steps[i].msg != "" {
			msgs = append(msgs, steps[i].msg)
		}
	}
	return msgs
}

// run runs one round of the script with steps (the apply round's steps
// and reading back); a command that failed is the returned result, as
// run_command's check_rc reports it.
func (j *tzJob) run(ctx context.Context, env *tasks.Env, round, steps string) (tzHost, *tasks.Result, error) {
	name, hasName := j.planned["name"]
	pairs := [][2]string{{"round", round}, {"name", name}, {"hasname", shared.BoolFlag(hasName)}}
	if round != "probe" {
		pairs = append(pairs, [2]string{"impl", j.probe.v["impl"]}, [2]string{"tdc", j.probe.v["tdc"]})
	}
	script := shared.SysFuncs + shared.BlobFuncs + shared.ShAssign(pairs) + timezoneScript + steps
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tzHost{}, nil, err
	}
	v, blobs := shared.ParseBlobs(res.Stdout)
	h := tzHost{v: v, blobs: blobs}
	if v["fail"] == "rc" {
		// timedatectl status, or the step the apply round stopped at
		var argv []string
		switch {
		case v["failcmd"] == "status" && round == "probe":
			argv = []string{v["tdc"], "status"}
		case v["failcmd"] == "status":
			argv = []string{j.probe.v["tdc"], "status"}
		default:
			if i := shared.Atoi(v["step"]); i >= 0 && i < len(j.steps) {
				argv = j.steps[i].argv
			}
		}
		return h, j.cmdFailure(v, blobs, argv), nil
	}
	if res.ExitCode != 0 || v["os"] == "" && round == "probe" {
		r := shared.Fail(shared.ScriptError(res))
		return h, &r, nil
	}
	return h, nil, nil
}

// cmdFailure is the result of a command that failed (run_command with
// check_rc): its command line, rc and output, stderr as the message.
func (j *tzJob) cmdFailure(v shared.Verdict, blobs map[string]string, argv []string) *tasks.Result {
	rc, _ := strconv.Atoi(v["rc"])
	out, errOut := blobs["o"], blobs["e"]
	data := map[string]any{"rc": rc, "stdout": out, "stderr": errOut, "stdout_lines": shared.Lines(out),
		"stderr_lines": shared.Lines(errOut), "cmd": shared.PyCleanArgs(argv)}
	return &tasks.Result{Failed: true, Msg: strings.TrimRight(errOut, " \t\n\r\f\v"), Data: data}
}

// failure is the result of an abort (with the messages of what was done
// before) or of another error of the module.
func (j *tzJob) failure(err error) tasks.Result {
	var ab *tzAbort
	if errors.As(err, &ab) {
		return shared.Fail(tzAbortMsg(ab.msg, j.msgs))
	}
	return shared.Fail(err.Error())
}

// tzEqual reports whether a and b hold the same value for every key.
func tzEqual(keys []string, a, b map[string]string) bool {
	for _, k := range keys {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func (timezoneModule) Spec() *tasks.Spec { return timezoneArgs }
