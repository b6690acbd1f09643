package net

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/tasks"
)

// waitForModule waits for a port (probed from the host's side with
// Conn.Dial, so nothing like nc is needed there) or a path (polled by a
// script that does its own waiting, one round trip per poll period), as
// Ansible's wait_for does.
type waitForModule struct{}

var _ tasks.Module = (*waitForModule)(nil)

var waitForArgs = &tasks.Spec{Module: "wait_for", Params: []tasks.Param{
	{Name: "host", Default: "127.0.0.1"},
	{Name: "timeout", Kind: tasks.Int, Default: 300},
	{Name: "connect_timeout", Kind: tasks.Int, Default: 5},
	{Name: "delay", Kind: tasks.Int, Default: 0},
	{Name: "port", Kind: tasks.Int},
	{Name: "active_connection_states", Kind: tasks.List, Default: []any{"ESTABLISHED", "FIN_WAIT1", "FIN_WAIT2", "SYN_RECV", "SYN_SENT", "TIME_WAIT"}},
	{Name: "path", Kind: tasks.Path},
	{Name: "search_regex"},
	{Name: "state", Default: "started", Choices: []string{"absent", "drained", "present", "started", "stopped"}},
	{Name: "exclude_hosts", Kind: tasks.List},
	{Name: "sleep", Kind: tasks.Int, Default: 1},
	{Name: "msg"},
}}

// waiter is one wait_for call.
type waiter struct {
	a     tasks.Values
	env   *tasks.Env
	start time.Time
	re    *pyre.Regexp
	data  map[string]any
	// matchErr is search_regex's search past its bounds
	matchErr error
}

// Run waits.
func (waitForModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := waitForArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	w, stop := decodeWaitFor(a, env)
	if stop != nil {
		return *stop, nil
	}
	if err := sleepCtx(ctx, time.Duration(a.Int("delay"))*time.Second); err != nil {
		return tasks.Result{}, err
	}
	ok, err := w.wait(ctx)
	if err != nil {
		return tasks.Result{}, err
	}
	return w.result(ok), nil
}

// decodeWaitFor checks wait_for's arguments and makes the waiter, its
// clock started. A non-nil result ends the task: skipped in check mode,
// or the failure Ansible reports for bad arguments.
func decodeWaitFor(a tasks.Values, env *tasks.Env) (*waiter, *tasks.Result) {
	if env.Check {
		return nil, &tasks.Result{Skipped: true, Msg: "remote module (wait_for) does not support check mode", Data: map[string]any{}}
	}
	w := &waiter{a: a, env: env, start: time.Now(), data: map[string]any{
		"path": nil, "port": nil, "search_regex": nil, "state": a.Str("state"),
		"match_groups": []any{}, "match_groupdict": map[string]any{},
	}}
	failed := func(msg string) (*waiter, *tasks.Result) {
		return nil, &tasks.Result{Failed: true, Msg: msg, Data: map[string]any{"elapsed": 0}}
	}
	state := a.Str("state")
	if a.Has("port") && a.Has("path") {
		return failed("port and path parameter can not both be passed to wait_for")
	}
	if a.Has("path") && state == "stopped" {
		return failed("state=stopped should only be used for checking a port in the wait_for module")
	}
	if a.Has("path") && state == "drained" {
		return failed("state=drained should only be used for checking a port in the wait_for module")
	}
	if a.Has("exclude_hosts") && state != "drained" {
		return failed("exclude_hosts should only be with state=drained")
	}
	if a.Has("path") {
		w.data["path"] = a.Str("path")
	}
	if a.Has("port") {
		w.data["port"] = a.Int("port")
	}
	if a.Has("search_regex") {
		w.data["search_regex"] = a.Str("search_regex")
		var err error
		// Ansible compiles to_bytes(search_regex) with MULTILINE
		if w.re, err = pyre.Compile(a.Str("search_regex"), pyre.Options{Multiline: true, Bytes: true}); err != nil {
			return failed(fmt.Sprintf("Invalid regular expression: %v", err))
		}
	}
	return w, nil
}

// wait waits for what the arguments name (a path, a port to drain, a
// port, or else the timeout) and reports whether it came in time.
func (w *waiter) wait(ctx context.Context) (bool, error) {
	a := w.a
	switch {
	case a.Has("path"):
		return w.path(ctx)
	case a.Has("port") && a.Str("state") == "drained":
		return w.drained(ctx)
	case a.Has("port"):
		return w.port(ctx)
	}
	// Neither: just the delay and the timeout, as Ansible sleeps.
	err := sleepCtx(ctx, time.Duration(a.Int("timeout"))*time.Second)
	return true, err
}

// result is wait_for's result once the wait is over: the data gathered,
// or the timeout's failure (msg when given) when ok is false.
func (w *waiter) result(ok bool) tasks.Result {
	w.data["elapsed"] = int(time.Since(w.start).Seconds())
	if w.matchErr != nil {
		return tasks.Result{Failed: true, Msg: w.matchErr.Error(), Data: map[string]any{"elapsed": w.data["elapsed"]}}
	}
	if !ok {
		msg := w.timeoutMsg()
		if w.a.Has("msg") {
			msg = w.a.Str("msg")
		}
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{"elapsed": w.data["elapsed"]}}
	}
	return tasks.Result{Data: w.data}
}

func (w *waiter) deadline() time.Time {
	return w.start.Add(time.Duration(w.a.Int("timeout")) * time.Second)
}

func (w *waiter) timeoutMsg() string {
	a := w.a
	hp := net.JoinHostPort(a.Str("host"), strconv.Itoa(a.Int("port")))
	switch {
	case a.Has("path") && (a.Str("state") == "absent"):
		return fmt.Sprintf("Timeout when waiting for %s to be absent.", a.Str("path"))
	case a.Has("path") && w.re != nil:
		return fmt.Sprintf("Timeout when waiting for search string %s in %s", a.Str("search_regex"), a.Str("path"))
	case a.Has("path"):
		return "Timeout when waiting for file " + a.Str("path")
	case a.Str("state") == "stopped" || a.Str("state") == "absent":
		return fmt.Sprintf("Timeout when waiting for %s to stop.", hp)
	case a.Str("state") == "drained":
		return fmt.Sprintf("Timeout when waiting for %s to drain", hp)
	case w.re != nil:
		return fmt.Sprintf("Timeout when waiting for search string %s in %s", a.Str("search_regex"), hp)
	}
	return "Timeout when waiting for " + hp
}

// match searches text and records the regex's groups, as Python's
// match.groups() and groupdict() (None for a group that did not take
// part). A search past its bounds ends the wait (true): its error stays
// in matchErr and fails the task.
func (w *waiter) match(text string) bool {
	m, err := w.re.Search(text)
	if err != nil {
		w.matchErr = err
		return true
	}
	if m == nil {
		return false
	}
	groups := []any{}
	dict := map[string]any{}
	for i, name := range w.re.SubexpNames() {
		if i == 0 {
			continue
		}
		var g any
		if m[2*i] >= 0 {
			g = text[m[2*i]:m[2*i+1]]
		}
		groups = append(groups, g)
		if name != "" {
			dict[name] = g
		}
	}
	w.data["match_groups"], w.data["match_groupdict"] = groups, dict
	return true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (waitForModule) Spec() *tasks.Spec { return waitForArgs }
