package provision

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// A task with async: runs in the background (a module whose Ansible
// action does not support async, Traits.NoAsync, fails instead: raw,
// script, copy, debug, ...). command and shell (modules that are one
// script on the host) run detached on the
// host itself, their output kept in ~/.ansible_async/JID.* (Ansible's
// async directory; removed once a polled job ends), so a poll: 0
// job outlives the run, as Ansible's do; any other module runs on the
// controller beside the play for as long as the run lasts. async_status
// reads a job's state; when the job is done it returns the module's
// result, as the module would have returned it. A host-side job keeps its
// module and arguments beside its output (JID.task) and its script's pid
// (JID.pid): async_status in a later run, another controller's, reads
// its result the same way, and agents.Job.Cancel can stop it.

// job is one async task.
type job struct {
	id     string
	dir    string // the async directory, a shell word (asyncDir)
	module tasks.Module
	args   tasks.Args
	env    *tasks.Env
	// Host side: the module is replayed on the job's recorded output,
	// kept in results (the file's path on the host).
	hostSide bool
	results  string
	// Controller side: the result, once done is closed.
	done chan struct{}
	res  tasks.Result
	err  error
}

// asyncJobs are a run's jobs by id.
type asyncJobs struct {
	mu   sync.Mutex
	jobs map[string]*job
}

func (a *asyncJobs) add(j *job) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.jobs == nil {
		a.jobs = map[string]*job{}
	}
	a.jobs[j.id] = j
}

func (a *asyncJobs) get(id string) *job {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.jobs[id]
}

// newJobID makes an id shaped like Ansible's ("j" and 12 digits, a dot,
// a number).
func newJobID() string {
	n, _ := rand.Int(rand.Reader, big.NewInt(1e12))
	m, _ := rand.Int(rand.Reader, big.NewInt(1e6))
	return fmt.Sprintf("j%012d.%d", n, m)
}

// runAsync starts module in the background and, with poll > 0, waits for
// it (checking every poll seconds, for at most limit seconds).
func (pr *playRun) runAsync(ctx context.Context, name string, traits tasks.Traits, mod tasks.Module, env *tasks.Env, args tasks.Args, limit, poll int) (tasks.Result, error) {
	ae := *env
	ae.Async = true
	env = &ae
	j := &job{id: newJobID(), dir: asyncDir(env), module: mod, args: args, env: env, hostSide: traits.DetachedAsync}
	started := map[string]any{"ansible_job_id": j.id, "started": 1, "finished": 0}
	if j.hostSide {
		task, err := json.Marshal(jobTask{Module: name, Args: args})
		if err != nil {
			return tasks.Result{}, fmt.Errorf("async: %s: %w", name, err)
		}
		lc := &launchConn{Conn: env.Conn, id: j.id, dir: j.dir, task: task}
		e := *env
		e.Conn = lc
		res, err := mod.Run(ctx, &e, args)
		if err != nil {
			return tasks.Result{}, err
		}
		if lc.err == nil && !lc.launched {
			// Nothing to run (creates=, removes=): the job is done
			// already, with the module's answer.
			j.hostSide, j.res, j.done = false, res, make(chan struct{})
			close(j.done)
		} else if lc.err != nil {
			return tasks.Result{}, fmt.Errorf("async: could not start %s in the background: %v", name, lc.err)
		}
		started["results_file"] = lc.results
		j.results = lc.results
	}
	if j.done == nil && !j.hostSide {
		j.done = make(chan struct{})
		go func() {
			defer close(j.done)
			jctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Duration(limit)*time.Second)
			defer cancel()
			j.res, j.err = mod.Run(jctx, env, args)
		}()
		started["results_file"] = ""
	}
	pr.rn.jobs.add(j)
	if poll <= 0 {
		return tasks.Result{Changed: true, Data: started}, nil
	}
	deadline := time.Now().Add(time.Duration(limit) * time.Second)
	for {
		select {
		case <-ctx.Done():
			return tasks.Result{}, ctx.Err()
		case <-time.After(time.Duration(poll) * time.Second):
		}
		res, finished, err := pr.jobStatus(ctx, j, env)
		if err != nil {
			return res, err
		}
		if finished {
			// As Ansible: a job polled to its end leaves nothing behind.
			if j.hostSide {
				if _, err := env.Conn.Run(ctx, transport.Cmd{Script: "rm -f " + jobPath(j.dir, j.id) + ".*"}); err != nil {
					return tasks.Result{}, err
				}
			}
			return res, nil
		}
		if time.Now().After(deadline) {
			return tasks.Result{Failed: true, Msg: fmt.Sprintf("async task did not complete within the requested time - %ds", limit),
				Data: map[string]any{"ansible_job_id": j.id, "finished": 0, "started": 1}}, nil
		}
	}
}

// jobStatus reports a job's state: not finished yet, or the module's
// result with the job's id.
func (pr *playRun) jobStatus(ctx context.Context, j *job, env *tasks.Env) (tasks.Result, bool, error) {
	running := tasks.Result{Data: map[string]any{"ansible_job_id": j.id, "started": 1, "finished": 0}}
	var res tasks.Result
	if j.hostSide {
		rec, done, err := readJob(ctx, env.Conn, j.dir, j.id)
		if err != nil || !done {
			return running, false, err
		}
		e := *j.env
		e.Conn = &replayConn{Conn: env.Conn, res: rec.res}
		if res, err = j.module.Run(ctx, &e, j.args); err != nil {
			return tasks.Result{}, true, err
		}
		if res.Data != nil {
			for k, v := range rec.times {
				if _, ok := res.Data[k]; ok {
					res.Data[k] = v
				}
			}
		}
	} else {
		select {
		case <-j.done:
		default:
			return running, false, nil
		}
		if j.err != nil {
			return tasks.Result{Failed: true, Msg: j.err.Error(), Data: map[string]any{"ansible_job_id": j.id, "finished": 1, "started": 1}}, true, nil
		}
		res = j.res
	}
	data := make(map[string]any, len(res.Data)+3)
	for k, v := range res.Data {
		data[k] = v
	}
	data["ansible_job_id"], data["finished"], data["started"] = j.id, 1, 1
	if j.results != "" {
		// As async_status reports a job's result.
		data["results_file"] = j.results
	}
	res.Data = data
	return res, true, nil
}

// statusModule is async_status: jid, mode status or cleanup.
type statusModule struct{ pr *playRun }

func (m statusModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	for k := range args {
		if k != "jid" && k != "mode" {
			return tasks.Result{}, fmt.Errorf("Unsupported parameters for (async_status) module: %s. Supported parameters include: jid, mode.", k)
		}
	}
	id := tasks.ToText(args["jid"])
	if id == "" {
		return tasks.Result{}, errors.New("missing required arguments: jid")
	}
	mode := "status"
	if v, ok := args["mode"]; ok {
		mode = tasks.ToText(v)
	}
	j := m.pr.rn.jobs.get(id)
	dir := asyncDir(env)
	if mode == "cleanup" {
		if j == nil || j.hostSide {
			if _, err := env.Conn.Run(ctx, transport.Cmd{Script: "rm -f " + jobPath(dir, id) + ".*"}); err != nil {
				return tasks.Result{}, err
			}
		}
		return tasks.Result{Data: map[string]any{"ansible_job_id": id, "erased": id}}, nil
	}
	if mode != "status" {
		return tasks.Result{}, fmt.Errorf("value of mode must be one of: status, cleanup, got: %s", mode)
	}
	if j != nil && j.hostSide && j.dir != dir {
		// The job's files are in another async directory than this
		// task's (ansible_async_dir): as Ansible, look where told.
		if rec, _, err := readJob(ctx, env.Conn, dir, id); err != nil {
			return tasks.Result{}, err
		} else if rec == nil {
			return tasks.Result{Failed: true, Msg: "could not find job", Data: map[string]any{"ansible_job_id": id, "started": 1, "finished": 1}}, nil
		}
	}
	if j == nil {
		// A job of an earlier run: its output is on the host, with the
		// module and arguments that read it (replayable); a job without
		// them (an older tender's) gives its raw outcome.
		rec, done, err := readJob(ctx, env.Conn, dir, id)
		if err != nil {
			return tasks.Result{}, err
		}
		if rec == nil {
			return tasks.Result{Failed: true, Msg: "could not find job", Data: map[string]any{"ansible_job_id": id, "started": 1, "finished": 1}}, nil
		}
		if hj := m.replayable(j, id, dir, rec, done); hj != nil {
			hj.env = env
			res, _, err := m.pr.jobStatus(ctx, hj, env)
			return res, err
		}
		data := map[string]any{"ansible_job_id": id, "started": 1, "finished": 0}
		if done {
			data["finished"], data["rc"] = 1, rec.res.ExitCode
			data["stdout"], data["stderr"] = string(rec.res.Stdout), string(rec.res.Stderr)
		}
		return tasks.Result{Failed: done && rec.res.ExitCode != 0, Data: data}, nil
	}
	res, _, err := m.pr.jobStatus(ctx, j, env)
	return res, err
}

// jobPath is the shell word for a job's files' common prefix in the async
// directory dir (a shell word).
func jobPath(dir, id string) string { return dir + "/" + transport.Quote(id) }

// replayable is the job of an earlier run that rec (finished) records,
// to read its result as its module would: nil when rec names no module
// of the run's registry that runs detached on the host. The module and
// its arguments come from the host: they are data for the module's
// reading of the recorded output, nothing runs because of them.
func (m statusModule) replayable(j *job, id, dir string, rec *jobRecord, done bool) *job {
	if j != nil || rec == nil || !done || len(rec.task) == 0 {
		return nil
	}
	v, err := pydict.LoadJSON(rec.task)
	if err != nil {
		return nil
	}
	task, _ := v.(map[string]any)
	name, _ := task["module"].(string)
	args, _ := task["args"].(map[string]any)
	def, ok := m.pr.rn.r.Modules.Def(name)
	if !ok || !def.Traits.DetachedAsync || def.New == nil {
		return nil
	}
	// The host wrote them. They stay plain (the modules read them as they
	// read a task's): the modules that run detached (command, shell)
	// template and evaluate none of their arguments, and replayConn runs
	// nothing.
	return &job{id: id, dir: dir, module: def.New(), args: args, hostSide: true, results: rec.path}
}

// JobFiles is the shell word for the common prefix of the files of
// the host-side async job id ($PREFIX.rc, .out, .err, .pid, ...), in the
// async directory of the task env runs (ansible_async_dir, else
// ~/.ansible_async): for a module that acts on a job a task started
// with async and poll: 0.
func JobFiles(env *tasks.Env, id string) string { return jobPath(asyncDir(env), id) }

// asyncDir is the shell word for the task's async directory:
// ansible_async_dir, else Ansible's ~/.ansible_async, a leading ~ being
// the user's home on the host.
func asyncDir(env *tasks.Env) string {
	dir := "~/.ansible_async"
	if env != nil && env.Eval != nil {
		if v, err := env.Eval("ansible_async_dir"); err == nil && v != nil && fmt.Sprint(v) != "" {
			dir = fmt.Sprint(v)
		}
	}
	dir = strings.TrimRight(dir, "/")
	switch {
	case dir == "~" || dir == "":
		return `"$HOME"`
	case strings.HasPrefix(dir, "~/"):
		return `"$HOME"/` + transport.Quote(dir[2:])
	}
	return transport.Quote(dir)
}

// launchConn runs the module's one script detached on the host instead of
// waiting for it, and answers as if it succeeded with no output.
type launchConn struct {
	transport.Conn
	id       string
	dir      string // the async directory, a shell word
	task     []byte // the job's jobTask, as JSON
	launched bool
	results  string
	err      error
}

// jobTask is what a host-side job runs, kept beside its output ($j.task)
// so that async_status in a later run (another controller's, after a
// restart) reads its result as the module would have returned it.
type jobTask struct {
	Module string         `json:"module"`
	Args   map[string]any `json:"args"`
}

func (c *launchConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	if c.launched {
		c.err = errors.New("the module needs more than one script")
		return transport.Result{}, c.err
	}
	var stdin bytes.Buffer
	script := cmd.Text() // the job's sh runs it from a file: Lib and all
	stdin.WriteString(script)
	stdin.Write(c.task)
	if cmd.Stdin != nil {
		if _, err := stdin.ReadFrom(cmd.Stdin); err != nil {
			return transport.Result{}, err
		}
	}
	p := jobPath(c.dir, c.id)
	// The job's own files are private (umask 077); the job itself runs
	// with the session's umask, as any other task, so that files it
	// creates get the usual modes.
	launcher := `_u=$(umask); umask 077; mkdir -p ` + c.dir + ` || exit 1
j=` + p + `
head -c ` + strconv.Itoa(len(script)) + ` >"$j.sh" && head -c ` + strconv.Itoa(len(c.task)) + ` >"$j.task" && cat >"$j.in" || exit 1
date '+%Y-%m-%d %H:%M:%S %s' >"$j.start"
( trap '' HUP; umask "$_u"; sh "$j.sh" <"$j.in" >"$j.out" 2>"$j.err" & echo $! >"$j.pid"; wait $!; rc=$?; date '+%Y-%m-%d %H:%M:%S %s' >"$j.end"; echo $rc >"$j.rc.tmp"; mv "$j.rc.tmp" "$j.rc" ) </dev/null >/dev/null 2>&1 &
printf '%s\n' "$j"
`
	res, err := c.Conn.Run(ctx, transport.Cmd{Script: launcher, Stdin: &stdin, Env: cmd.Env, Become: cmd.Become})
	if err != nil {
		return transport.Result{}, err
	}
	if res.ExitCode != 0 {
		c.err = fmt.Errorf("exit %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr)))
		return transport.Result{}, c.err
	}
	c.launched, c.results = true, strings.TrimSpace(string(res.Stdout))
	return transport.Result{}, nil
}

// replayConn answers the module's one script with the job's recorded
// outcome.
type replayConn struct {
	transport.Conn
	res transport.Result
}

func (c *replayConn) Run(context.Context, transport.Cmd) (transport.Result, error) { return c.res, nil }

// jobRecord is a finished host-side job's outcome and its times.
type jobRecord struct {
	res   transport.Result
	task  []byte // its jobTask, as JSON; empty for a job of an older tender
	path  string // its files' prefix on the host (Ansible's results_file)
	times map[string]any
}

// readJob reads a host-side job's files in one round trip: nil when the
// host has no such job, done when it finished.
func readJob(ctx context.Context, c transport.Conn, dir, id string) (*jobRecord, bool, error) {
	script := `j=` + jobPath(dir, id) + `
[ -f "$j.sh" ] || { echo missing; exit 0; }
[ -f "$j.rc" ] || { echo running; exit 0; }
echo done; printf '%s\n' "$j"; cat "$j.rc" "$j.start" "$j.end"; wc -c <"$j.out"; wc -c <"$j.err"
if [ -f "$j.task" ]; then wc -c <"$j.task"; else echo 0; fi
cat "$j.out" "$j.err"; cat "$j.task" 2>/dev/null
`
	res, err := c.Run(ctx, transport.Cmd{Script: script})
	if err != nil {
		return nil, false, err
	}
	out := res.Stdout
	line := func() string {
		i := bytes.IndexByte(out, '\n')
		if i < 0 {
			s := string(out)
			out = nil
			return s
		}
		s := string(out[:i])
		out = out[i+1:]
		return strings.TrimSpace(s)
	}
	switch line() {
	case "missing":
		return nil, false, nil
	case "running":
		return &jobRecord{}, false, nil
	case "done":
	default:
		return nil, false, fmt.Errorf("async_status: unexpected answer from the host: %q", res.Stdout)
	}
	path := line()
	rc, _ := strconv.Atoi(line())
	start, end := strings.Fields(line()), strings.Fields(line())
	no, _ := strconv.Atoi(line())
	ne, _ := strconv.Atoi(line())
	nt, _ := strconv.Atoi(line())
	if no < 0 || ne < 0 || nt < 0 || no+ne+nt > len(out) {
		return nil, false, errors.New("async_status: the job's output was cut short")
	}
	rec := &jobRecord{res: transport.Result{ExitCode: rc, Stdout: out[:no], Stderr: out[no : no+ne]}, task: out[no+ne : no+ne+nt], path: path, times: map[string]any{}}
	if len(start) == 3 && len(end) == 3 {
		rec.times["start"] = start[0] + " " + start[1] + ".000000"
		rec.times["end"] = end[0] + " " + end[1] + ".000000"
		s, _ := strconv.Atoi(start[2])
		e, _ := strconv.Atoi(end[2])
		d := time.Duration(e-s) * time.Second
		rec.times["delta"] = fmt.Sprintf("%d:%02d:%02d.000000", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
	}
	return rec, true, nil
}
