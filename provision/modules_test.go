package provision_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
)

// The engine's tests use these small modules (the real ones live in
// tasks/builtin and are tested there and end to end). Each really runs on
// the host through the transport.

type cmdModule struct{}

func (cmdModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	script, _ := args["_raw_params"].(string)
	if env.Check {
		return tasks.Result{Skipped: true, Msg: "skipped in check mode"}, nil
	}
	res, err := env.Conn.Run(ctx, transport.Cmd{Script: script})
	if err != nil {
		return tasks.Result{}, err
	}
	out := strings.TrimSuffix(string(res.Stdout), "\n")
	r := tasks.Result{Changed: true, RC: res.ExitCode, Data: map[string]any{
		"rc": res.ExitCode, "stdout": out, "stderr": strings.TrimSuffix(string(res.Stderr), "\n"),
		"stdout_lines": lines(out), "cmd": script,
	}}
	if res.ExitCode != 0 {
		r.Failed, r.Msg = true, "non-zero return code"
	}
	return r, nil
}

func lines(s string) []any {
	out := []any{}
	if s == "" {
		return out
	}
	for _, l := range strings.Split(s, "\n") {
		out = append(out, l)
	}
	return out
}

type setFactModule struct{}

func (setFactModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	f := map[string]any{}
	for k, v := range args {
		f[k] = v
	}
	return tasks.Result{Data: map[string]any{"ansible_facts": pydict.Like(f, args)}}, nil
}

type failModule struct{}

func (failModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	msg, ok := args["msg"].(string)
	if !ok {
		msg = "Failed as requested from task"
	}
	return tasks.Result{Failed: true, Msg: msg}, nil
}

// fileModule writes content to dest atomically, changed only when the
// content differs: enough idempotence to test handlers and check mode.
type fileModule struct{}

func (fileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	dest := fmt.Sprint(args["dest"])
	content := fmt.Sprint(args["content"])
	res, err := env.Conn.Run(ctx, transport.Cmd{Script: "cat " + transport.Quote(dest) + " 2>/dev/null"})
	if err != nil {
		return tasks.Result{}, err
	}
	if string(res.Stdout) == content {
		return tasks.Result{Data: map[string]any{"dest": dest}}, nil
	}
	if !env.Check {
		if err := env.Conn.Put(ctx, dest, strings.NewReader(content), 0o644); err != nil {
			return tasks.Result{}, err
		}
	}
	return tasks.Result{Changed: true, Data: map[string]any{"dest": dest}}, nil
}

func testModules() *tasks.Registry {
	fakes := map[string]tasks.Factory{
		"command":  func() tasks.Module { return cmdModule{} },
		"shell":    func() tasks.Module { return cmdModule{} },
		"set_fact": func() tasks.Module { return setFactModule{} },
		"fail":     func() tasks.Module { return failModule{} },
		"copy":     func() tasks.Module { return fileModule{} },
	}
	// Controller-side modules are the real ones: they never touch a host.
	real := builtin.Registry()
	r := &tasks.Registry{}
	for _, name := range []string{"command", "shell", "set_fact", "fail", "copy", "debug", "assert", "include_vars", "pause", "add_host", "group_by", "set_stats", "library", "validate_argument_spec"} {
		d, _ := real.Def(name)
		if f, ok := fakes[name]; ok {
			d.New = f
		}
		r.Add(d)
	}
	return r
}
