package provision

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
)

// inclusion is one included file (or role) and the hosts that include it
// with the same loop item, as Ansible groups them.
type inclusion struct {
	task   *playbooks.Task // the include, resolved (Tasks or Target set)
	vars   map[string]any  // the loop variables, nil without a loop
	label  any
	isItem bool
	hosts  []*hostRun
	// term is the file as the include names it, rendered (its result's
	// include).
	term string
}

// runDynamic runs an include_tasks or include_role: on each host it checks
// the include's conditions, renders its loop and its file or role name,
// then runs each distinct inclusion for the hosts that share it, in the
// order they were first met, with the loop variables in scope. Each tasks
// file a host includes counts one ok for it (one per loop item), and an
// included role none, as in ansible-playbook.
func (pr *playRun) runDynamic(ctx context.Context, hosts []*hostRun, inc *playbooks.Task) {
	name := inc.DisplayName()
	if len(hosts) > 0 {
		// The banner's name is templated with the first host's
		// variables, as any task's.
		name = pr.shownName(hosts[0], inc)
	}
	if inc.Name == "" && inc.Role != nil && inc.Kind == playbooks.KindIncludeTasks {
		// Running, an unnamed include_tasks of a role is "role :
		// action", as any role task (--list-tasks shows the action).
		name = inc.Role.Name + " : " + name
	}
	pr.rn.emit(Event{Kind: TaskStart, Play: pr.name, Task: name, Handler: inc.Handler, Path: inc.Pos.String(), CheckMode: pr.checkMarked(inc)})
	var incs []*inclusion
	for _, h := range hosts {
		found, err := pr.inclusions(h, inc)
		if err != nil {
			pr.failInclude(h, inc, err)
			continue
		}
		pr.includeDone(h, inc, found)
		if inc.Kind == playbooks.KindIncludeTasks {
			pr.rn.count(h.name, func(s *Stats) { s.OK += len(found.incs) })
		}
		for _, f := range found.incs {
			incs = merge(incs, f, h)
		}
	}
	// An include that fails on a host (its file or role missing) is
	// fatal to the play under any_errors_fatal, as any task's failure.
	if len(hosts) > 0 {
		pr.endIfFatal(hosts, inc, pr.rawKeyword(inc, anyErrorsFatal) && !pr.rawKeyword(inc, ignoreErrors))
		if pr.stopped() {
			return
		}
	}
	for _, in := range incs {
		if in.task.Kind == playbooks.KindIncludeTasks {
			pr.rn.emit(Event{Kind: Included, Play: pr.name, Task: inc.DisplayName(), Path: playbooks.ShownPath(in.task.File),
				Hosts: hostNames(in.hosts), Item: in.label, IsItem: in.isItem})
		}
	}
	for _, in := range incs {
		list := in.task.Tasks
		if in.task.Kind == playbooks.KindIncludeRole {
			pr.handlers.include(in.task)
			list = pr.roleTasks(in.task.Target)
			if public, err := tasks.ParseBool(inc.Args["public"]); err == nil && public {
				// Its defaults and vars are the play's from now on.
				pr.makePublic(in.task.Target)
			}
		}
		for _, h := range in.hosts {
			h.incVars = append(h.incVars, in.vars)
		}
		pr.runList(ctx, activeHosts(in.hosts), list)
		for _, h := range in.hosts {
			h.incVars = h.incVars[:len(h.incVars)-1]
		}
		if pr.stopped() || ctx.Err() != nil {
			return
		}
	}
}

// includeTaskError is an include's failure before its file or role is
// read: its conditions, its loop or its file's name could not be
// evaluated. Ansible's worker finds these while running the include as a
// task, so they fail it as any task's error does.
type includeTaskError struct{ err error }

func (e *includeTaskError) Error() string { return e.err.Error() }
func (e *includeTaskError) Unwrap() error { return e.err }

// failInclude records that inc could not include on h. As in Ansible,
// ignore_errors does not hide an include whose file or role could not be
// read (a rescue does), but an include that failed as a task
// (includeTaskError) or a sandbox's denial is a failure like any other
// task's: the include's own keywords apply to it, and its register.
func (pr *playRun) failInclude(h *hostRun, inc *playbooks.Task, err error) {
	var denied *sandbox.DeniedError
	var asTask *includeTaskError
	if !errors.As(err, &denied) && !errors.As(err, &asTask) {
		pr.fail(h, inc, err)
		return
	}
	kw, kerr := pr.resolve(inc, pr.scope(h, inc, nil))
	if kerr != nil {
		kw = keywords{}
	}
	pr.finish(h, inc, kw, failure(err), false, nil)
}

// included is what an include brings in on one host: its inclusions, and
// under a loop each item's result (an inclusion's or a skip's), in order.
type included struct {
	incs    []*inclusion
	looped  bool
	results []includeItem
}

// includeItem is one loop item's part of an include's result.
type includeItem struct {
	data    map[string]any
	label   any
	skipped bool
}

// inclusions renders what inc includes on h: one entry per loop item whose
// conditions hold (one entry without a loop), none when they do not.
func (pr *playRun) inclusions(h *hostRun, inc *playbooks.Task) (*included, error) {
	if inc.Loop == nil {
		ok, err := pr.conditionsHold(h, inc, nil)
		if err != nil || !ok {
			return &included{}, asIncludeTask(err)
		}
		scope := pr.scope(h, inc, nil)
		t, err := pr.resolveInclude(inc, scope)
		if err != nil {
			return nil, err
		}
		return &included{incs: []*inclusion{{task: t, term: includeTerm(inc, scope)}}}, nil
	}
	items, err := pr.loopItems(inc, pr.scope(h, inc, nil))
	if err != nil {
		// As for any task: a loop on an undefined variable fails the
		// include only if its when: holds.
		var u *expr.UndefinedError
		if errors.As(err, &u) {
			if ok, cerr := pr.conditionsHold(h, inc, nil); cerr == nil && !ok {
				return &included{}, nil
			}
		}
		return nil, asIncludeTask(err)
	}
	itemVars, label, err := loopItemVars(inc, items, pr.scope(h, inc, nil))
	if err != nil {
		return nil, asIncludeTask(err)
	}
	out := &included{looped: true}
	for i, item := range items {
		vars := itemVars[i]
		ok, err := pr.conditionsHold(h, inc, vars)
		if err != nil {
			return nil, asIncludeTask(err)
		}
		scope := pr.scope(h, inc, vars)
		shown := item
		if label != nil {
			if v, err := expr.RenderDeep(label, scope); err == nil {
				shown = v
			}
		}
		if !ok {
			data := map[string]any{"changed": false, "skipped": true, "skip_reason": "Conditional result was False"}
			maps.Copy(data, vars)
			out.results = append(out.results, includeItem{data: data, label: shown, skipped: true})
			continue
		}
		t, err := pr.resolveInclude(inc, scope)
		if err != nil {
			return nil, err
		}
		in := &inclusion{task: t, vars: vars, label: shown, isItem: true, term: includeTerm(inc, scope)}
		out.incs = append(out.incs, in)
		out.results = append(out.results, includeItem{data: includeResult(inc, in), label: shown})
	}
	return out, nil
}

// includeDone reports inc's result on h as Ansible's worker returns it and
// register stores it: a skip when nothing is included, else the file and
// the arguments it was included with, under a loop each item's (a skipped
// item shown as it is met). runDynamic counts an include as Ansible does,
// so its result here is not counted again.
func (pr *playRun) includeDone(h *hostRun, inc *playbooks.Task, found *included) {
	kw, err := pr.resolve(inc, pr.scope(h, inc, nil))
	if err != nil {
		kw = keywords{}
	}
	switch {
	case !found.looped && len(found.incs) == 0:
		pr.finish(h, inc, kw, outcome{skipped: true, data: map[string]any{"changed": false,
			"skipped": true, "skip_reason": "Conditional result was False"}}, false, nil)
		return
	case !found.looped:
		pr.finish(h, inc, kw, outcome{uncounted: true, data: includeResult(inc, found.incs[0])}, false, nil)
		return
	case len(found.results) == 0:
		pr.finish(h, inc, kw, outcome{skipped: true, data: map[string]any{"changed": false,
			"results": []any{}, "skipped": true, "skipped_reason": "No items in the list"}}, false, nil)
		return
	}
	results := make([]any, len(found.results))
	all := true
	for i, r := range found.results {
		results[i] = r.data
		if r.skipped {
			pr.finish(h, inc, kw, outcome{skipped: true, data: r.data}, true, r.label)
		} else {
			all = false
		}
	}
	out := outcome{loop: true, skipped: all, uncounted: !all, data: map[string]any{"changed": false,
		"msg": "All items completed", "results": results, "skipped": all}}
	if all {
		out.data["msg"] = "All items skipped"
	}
	pr.finish(h, inc, kw, out, false, nil)
}

// includeTerm is the file inc names (its _raw_params or file), rendered
// in scope; "" for an include_role or a name that does not render.
func includeTerm(inc *playbooks.Task, scope *expr.Vars) string {
	raw, ok := inc.Args["_raw_params"].(string)
	if !ok {
		raw, _ = inc.Args["file"].(string)
	}
	v, err := expr.Render(raw, scope)
	if err != nil {
		return raw
	}
	return expr.Str(v)
}

// includeResult is what an include returns for a host (or a loop item):
// the include_role's arguments, or the include_tasks' file as named and
// its other arguments; a loop item's has its loop variables, and an
// include without a loop says it changed nothing.
func includeResult(inc *playbooks.Task, in *inclusion) map[string]any {
	role := inc.Kind == playbooks.KindIncludeRole
	args := map[string]any{}
	for k, v := range inc.Args {
		if role || k != "_raw_params" && k != "file" {
			args[k] = v
		}
	}
	out := map[string]any{"include_args": args}
	if !role {
		out["include"] = in.term
	}
	if !in.isItem {
		out["changed"] = false
	}
	maps.Copy(out, in.vars)
	return out
}

// resolveInclude returns inc with its target loaded: inc itself when its
// name is literal, else the name rendered in scope and loaded.
func (pr *playRun) resolveInclude(inc *playbooks.Task, scope *expr.Vars) (*playbooks.Task, error) {
	if !inc.Dynamic() {
		return inc, nil
	}
	key := "_raw_params"
	if inc.Kind == playbooks.KindIncludeRole {
		key = "name"
	} else if _, ok := inc.Args[key]; !ok {
		key = "file"
	}
	raw, _ := inc.Args[key].(string)
	v, err := expr.Render(raw, scope)
	if err != nil {
		return nil, &includeTaskError{undefinedTwice(fmt.Errorf("%s: %w", inc.Module, err))}
	}
	return inc.Resolve(expr.Str(v))
}

// asIncludeTask marks err as an include's failure as a task; nil stays nil.
func asIncludeTask(err error) error {
	if err == nil {
		return nil
	}
	return &includeTaskError{err}
}

// merge adds h to the inclusion in incs that has f's target and loop
// variables, or appends f for h.
func merge(incs []*inclusion, f *inclusion, h *hostRun) []*inclusion {
	for _, in := range incs {
		// A host that has this inclusion already includes the file
		// again (a loop's equal items), as Ansible's included files do.
		if in.task == f.task && reflect.DeepEqual(in.vars, f.vars) && !slices.Contains(in.hosts, h) {
			in.hosts = append(in.hosts, h)
			return incs
		}
	}
	f.hosts = []*hostRun{h}
	return append(incs, f)
}

func hostNames(hosts []*hostRun) []string {
	out := make([]string, len(hosts))
	for i, h := range hosts {
		out[i] = h.name
	}
	return out
}

// loopNames returns a task's loop variable, index variable and label.
// loop_var and index_var are rendered in scope first, as Ansible
// post-validates loop_control before the first item: loop_var: "{{ name }}"
// names the variable by name's value. The label, rendered for each item,
// is "{{ <loop_var> }}" when loop_control gives none, as in Ansible.
func loopNames(t *playbooks.Task, scope expr.Scope) (loopVar, indexVar string, label any, err error) {
	loopVar = "item"
	lc := t.LoopControl
	if lc == nil {
		return loopVar, "", "{{" + loopVar + "}}", nil
	}
	if lc.LoopVar != "" {
		if loopVar, err = loopControlName(lc.LoopVar, scope); err != nil {
			return "", "", nil, fmt.Errorf("loop_control.loop_var: %w", err)
		}
	}
	if indexVar, err = loopControlName(lc.IndexVar, scope); err != nil {
		return "", "", nil, fmt.Errorf("loop_control.index_var: %w", err)
	}
	label = lc.Label
	if label == nil {
		label = "{{" + loopVar + "}}"
	}
	return loopVar, indexVar, label, nil
}

// loopControlName renders a loop_control name (loop_var, index_var) in
// scope when it is a template.
func loopControlName(s string, scope expr.Scope) (string, error) {
	if !expr.IsTemplate(s) {
		return s, nil
	}
	v, err := expr.Render(s, scope)
	if err != nil {
		return "", err
	}
	return expr.Str(v), nil
}
