package agents

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// Job is a module running on a target in the background (Cast). It runs
// there detached, its state kept in files beside Ansible's async jobs
// (~/.ansible_async/ID.*, or ansible_async_dir): it outlives the call,
// the connection and the controller. A controller that knows the target
// and the ID (Caller.Job) reads its state, waits for it or cancels it.
type Job struct {
	c *Caller
	// Target is where the job runs.
	Target provision.Target
	// ID is the job's id on the target (Ansible's ansible_job_id).
	ID string
}

// castSeconds is the async time a cast asks for. A job started with
// poll: 0 is not stopped by it (Cancel stops one).
const castSeconds = 366 * 24 * 3600

// Cast starts module with args on t in the background and returns its
// job at once, as a task with async and poll: 0 does. Only a module that
// runs as one script on the target can run detached (command, shell);
// another is refused, as is anything Call refuses.
func (c *Caller) Cast(ctx context.Context, t provision.Target, module string, args map[string]any) (*Job, error) {
	def, ok := c.opts.Modules.Def(module)
	if ok && !def.Traits.DetachedAsync {
		return nil, fmt.Errorf("%s cannot run in the background on a target: only modules that run as one script there can (command, shell)", module)
	}
	res, err := c.call(ctx, t, module, args, castSeconds, c.opts.Modules)
	if err != nil {
		return nil, err
	}
	id, _ := res.Data["ansible_job_id"].(string)
	if id == "" {
		return nil, fmt.Errorf("%s: %s started no job", t.Name, module)
	}
	return c.Job(t, id), nil
}

// Job returns the handle of the job id running on t: one this process
// or another started (its ID kept across a restart).
func (c *Caller) Job(t provision.Target, id string) *Job {
	return &Job{c: c, Target: t, ID: id}
}

// Status reads the job's state on its target. While it runs, done is
// false; once it ended, res is its outcome: rc, stdout and stderr, and
// Status failed when rc is not 0. A job the target does not have is an
// error.
func (j *Job) Status(ctx context.Context) (res *CallResult, done bool, err error) {
	if err := j.valid(); err != nil {
		return nil, false, err
	}
	// The Caller's modules read the job's result as the module would
	// have returned it (async_status itself is in every registry).
	res, err = j.c.call(ctx, j.Target, "async_status", map[string]any{"jid": j.ID}, 0, j.c.opts.Modules)
	var ce *CallError
	if err != nil && !(errors.As(err, &ce) && ce.Code == CodeTaskFailed && res != nil && res.Data["rc"] != nil) {
		return res, false, err
	}
	return res, finished(res.Data["finished"]), nil
}

// valid refuses an ID that is not one Cast gives (letters, digits, '.',
// '_' and '-', not starting with '.'): it names files on the target.
func (j *Job) valid() error {
	if !reJobID.MatchString(j.ID) {
		return fmt.Errorf("job id %q: want one Cast gave (such as j123456789012.34567)", j.ID)
	}
	return nil
}

var reJobID = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$`)

// finished reads async_status's finished flag.
func finished(v any) bool {
	switch f := v.(type) {
	case int:
		return f == 1
	case int64:
		return f == 1
	case bool:
		return f
	}
	return false
}

// Wait reads the job's state every interval (a second when 0) until it
// ends, and returns its outcome; ctx ending stops the waiting, not the
// job.
func (j *Job) Wait(ctx context.Context, interval time.Duration) (*CallResult, error) {
	if interval <= 0 {
		interval = time.Second
	}
	for {
		res, done, err := j.Status(ctx)
		if err != nil || done {
			return res, err
		}
		select {
		case <-ctx.Done():
			return nil, &CallError{Host: j.Target.Name, Code: CodeCancelled, Msg: ctx.Err().Error(), Cause: ctx.Err()}
		case <-time.After(interval):
		}
	}
}

// Cancel stops the job: its script and every process it started get
// SIGTERM, and the job ends with rc 143. It reports whether the job was
// still running; cancelling a job that ended does nothing.
func (j *Job) Cancel(ctx context.Context) (bool, error) {
	if err := j.valid(); err != nil {
		return false, err
	}
	res, err := j.c.call(ctx, j.Target, cancelModuleName, map[string]any{"jid": j.ID}, 0, jobRegistry())
	if err != nil {
		return false, err
	}
	return res.Changed(), nil
}

// Forget removes the job's files from its target (async_status's
// cleanup): its state cannot be read afterwards.
func (j *Job) Forget(ctx context.Context) error {
	if err := j.valid(); err != nil {
		return err
	}
	_, err := j.c.call(ctx, j.Target, "async_status", map[string]any{"jid": j.ID, "mode": "cleanup"}, 0, j.c.opts.Modules)
	return err
}

// jobRegistry holds the canceller, whatever modules the Caller's policy
// allows for calls.
func jobRegistry() *tasks.Registry {
	reg := &tasks.Registry{}
	reg.Register(cancelModuleName, func() tasks.Module { return cancelModule{} })
	return reg
}

// cancelModuleName is the cancelling module's name in the job registry.
const cancelModuleName = "tender_job_cancel"

// cancelModule stops a detached job: SIGTERM to its script's process
// and every descendant of it (found with ps), so that the launcher
// records the end. Changed when the job was running.
type cancelModule struct{}

func (cancelModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	id := tasks.ToText(args["jid"])
	script := `j=` + provision.JobFiles(env, id) + `
[ -f "$j.sh" ] || { echo missing; exit 0; }
[ -f "$j.rc" ] && { echo ended; exit 0; }
p=$(cat "$j.pid" 2>/dev/null) || { echo starting; exit 0; }
all=$p cur=$p
while [ -n "$cur" ]; do
	cur=$(ps -eo pid=,ppid= 2>/dev/null | awk -v l=" $(echo $cur) " 'index(l, " " $2 " ") { printf "%s ", $1 }')
	all="$all $cur"
done
kill -TERM $all 2>/dev/null
echo cancelled
`
	res, err := env.Conn.Run(ctx, transport.Cmd{Script: script})
	if err != nil {
		return tasks.Result{}, err
	}
	switch out := strings.TrimSpace(string(res.Stdout)); out {
	case "cancelled":
		return tasks.Result{Changed: true}, nil
	case "ended":
		return tasks.Result{}, nil
	case "missing":
		return tasks.Result{Failed: true, Msg: "could not find job " + id}, nil
	case "starting":
		return tasks.Result{Failed: true, Msg: "job " + id + " is starting: cancel it again"}, nil
	default:
		return tasks.Result{Failed: true, Msg: fmt.Sprintf("cancel: unexpected answer from the host (exit %d): %q %q", res.ExitCode, out, res.Stderr)}, nil
	}
}
