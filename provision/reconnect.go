package provision

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// wait_for_connection and reboot are actions of the engine, as they are
// action plugins in Ansible: they drop the host's connection and log in
// again, which no module can do from inside one.

var waitForConnectionSpec = &tasks.Spec{Module: tasks.EngineDef(tasks.EngineWaitForConnection).Name, ValidArgs: true, Params: []tasks.Param{
	{Name: "connect_timeout", Kind: tasks.Int, Default: 5},
	{Name: "delay", Kind: tasks.Int, Default: 0},
	{Name: "sleep", Kind: tasks.Int, Default: 1},
	{Name: "timeout", Kind: tasks.Int, Default: 600},
}}

var rebootSpec = &tasks.Spec{Module: tasks.EngineDef(tasks.EngineReboot).Name, ValidArgs: true, Params: []tasks.Param{
	{Name: "pre_reboot_delay", Kind: tasks.Int, Default: 0},
	{Name: "post_reboot_delay", Kind: tasks.Int, Default: 0},
	{Name: "reboot_timeout", Kind: tasks.Int, Default: 600},
	{Name: "connect_timeout", Kind: tasks.Int},
	{Name: "test_command", Default: "whoami"},
	{Name: "msg", Default: "Reboot initiated by Ansible"},
	{Name: "search_paths", Kind: tasks.List, Default: []any{"/sbin", "/bin", "/usr/sbin", "/usr/bin", "/usr/local/sbin"}},
	{Name: "boot_time_command", Default: "cat /proc/sys/kernel/random/boot_id"},
	{Name: "reboot_command"},
}}

// reconnectAction runs wait_for_connection or reboot on h.
func (pr *playRun) reconnectAction(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, scope *expr.Vars) outcome {
	rendered, err := expr.RenderDeep(map[string]any(t.Args), scope)
	if err != nil {
		return failure(fmt.Errorf("%s: %w", t.Pos, err))
	}
	args := tasks.Args(yaml11.Unmark(rendered).(map[string]any))
	reboot := pr.rn.engine(t) == tasks.EngineReboot
	spec := waitForConnectionSpec
	if reboot {
		spec = rebootSpec
	}
	a, err := spec.DecodeFor(t.Action, args)
	if err != nil {
		// The action's own failure, which says changed.
		out := failure(err)
		out.data["changed"] = false
		return out
	}
	if kw.check {
		if reboot {
			return outcome{changed: true, data: map[string]any{"changed": true, "elapsed": 0, "rebooted": true}}
		}
		return outcome{skipped: true, data: map[string]any{"changed": false, "skipped": true}}
	}
	start := time.Now()
	elapsed := func() int { return int(time.Since(start).Seconds()) }
	if !reboot {
		if err := sleepCtx(ctx, time.Duration(a.Int("delay"))*time.Second); err != nil {
			return failure(err)
		}
		err := pr.untilLoggedIn(ctx, h, kw, scope, time.Duration(a.Int("timeout"))*time.Second,
			time.Duration(a.Int("sleep"))*time.Second, time.Duration(a.Int("connect_timeout"))*time.Second, "true")
		if err != nil {
			return outcome{failed: true, data: map[string]any{"changed": false, "failed": true, "elapsed": elapsed(),
				"msg": "timed out waiting for ping module test: " + err.Error()}}
		}
		return outcome{data: map[string]any{"changed": false, "elapsed": elapsed()}}
	}
	return pr.reboot(ctx, h, kw, scope, a, start)
}

// reboot reboots h and waits for it to come back with another boot id.
func (pr *playRun) reboot(ctx context.Context, h *hostRun, kw keywords, scope *expr.Vars, a tasks.Values, start time.Time) outcome {
	fail := func(msg string) outcome {
		return outcome{failed: true, data: map[string]any{"changed": false, "failed": true, "rebooted": false,
			"elapsed": int(time.Since(start).Seconds()), "msg": msg}}
	}
	connectTimeout := 30 * time.Second
	if a.Has("connect_timeout") {
		connectTimeout = time.Duration(a.Int("connect_timeout")) * time.Second
	}
	bootCmd := a.Str("boot_time_command")
	before, err := pr.runOn(ctx, h, kw, scope, connectTimeout, bootCmd)
	if err != nil {
		return fail("failed to get the boot time before rebooting: " + err.Error())
	}
	cmd := a.Str("reboot_command")
	if cmd == "" {
		var paths []string
		for _, p := range a.Strings("search_paths") {
			paths = append(paths, transport.Quote(p))
		}
		found, err := pr.runOn(ctx, h, kw, scope, connectTimeout,
			"find "+strings.Join(paths, " ")+" -maxdepth 1 -name shutdown -print 2>/dev/null | head -n 1")
		if err != nil || found == "" {
			return fail("Unable to find command \"shutdown\" in search paths: " + fmt.Sprint(a.Strings("search_paths")))
		}
		delay := "now"
		if m := a.Int("pre_reboot_delay") / 60; m > 0 {
			delay = fmt.Sprintf("+%d", m)
		}
		cmd = transport.Quote(found) + " -r " + delay + " " + transport.Quote(a.Str("msg"))
	}
	// The command may cut the connection under it: that is its success.
	c, _, err := pr.conn(ctx, h, kw, scope)
	if err == nil {
		rctx, cancel := context.WithTimeout(ctx, connectTimeout)
		res, rerr := c.Run(rctx, transport.Cmd{Script: cmd + " </dev/null >/dev/null 2>&1 &\nsleep 1"})
		cancel()
		if rerr == nil && res.ExitCode != 0 {
			return fail(fmt.Sprintf("Reboot command failed. Error was: %s", strings.TrimSpace(string(res.Stderr))))
		}
	}
	h.close()
	deadline := time.Now().Add(time.Duration(a.Int("reboot_timeout")) * time.Second)
	for {
		if time.Now().After(deadline) {
			return fail(fmt.Sprintf("Timed out waiting for last boot time check (timeout=%d)", a.Int("reboot_timeout")))
		}
		if now, err := pr.runOn(ctx, h, kw, scope, connectTimeout, bootCmd); err == nil && now != before {
			break
		}
		h.close()
		if err := sleepCtx(ctx, time.Second); err != nil {
			return failure(err)
		}
	}
	if err := sleepCtx(ctx, time.Duration(a.Int("post_reboot_delay"))*time.Second); err != nil {
		return failure(err)
	}
	if err := pr.untilLoggedIn(ctx, h, kw, scope, time.Until(deadline), time.Second, connectTimeout, a.Str("test_command")); err != nil {
		return fail(fmt.Sprintf("Timed out waiting for post-reboot test command (timeout=%d)", a.Int("reboot_timeout")))
	}
	return outcome{changed: true, data: map[string]any{"changed": true, "rebooted": true, "elapsed": int(time.Since(start).Seconds())}}
}

// untilLoggedIn logs in to h afresh and runs cmd, again every pause,
// until it succeeds or limit has passed; each try is bounded by
// connectTimeout.
func (pr *playRun) untilLoggedIn(ctx context.Context, h *hostRun, kw keywords, scope *expr.Vars, limit, pause, connectTimeout time.Duration, cmd string) error {
	deadline := time.Now().Add(limit)
	for {
		h.close()
		_, err := pr.runOn(ctx, h, kw, scope, connectTimeout, cmd)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().Add(pause).After(deadline) {
			return err
		}
		if err := sleepCtx(ctx, pause); err != nil {
			return err
		}
	}
}

// runOn runs cmd on h over the task's connection, bounded by timeout, and
// returns its trimmed stdout; a non-zero exit is an error.
func (pr *playRun) runOn(ctx context.Context, h *hostRun, kw keywords, scope *expr.Vars, timeout time.Duration, cmd string) (string, error) {
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, _, err := pr.conn(rctx, h, kw, scope)
	if err != nil {
		return "", err
	}
	res, err := c.Run(rctx, transport.Cmd{Script: cmd})
	if err != nil {
		return "", err
	}
	if res.ExitCode != 0 {
		return "", fmt.Errorf("%s exited %d: %s", cmd, res.ExitCode, strings.TrimSpace(string(res.Stderr)))
	}
	return strings.TrimSpace(string(res.Stdout)), nil
}

// sleepCtx waits d, or less when ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
