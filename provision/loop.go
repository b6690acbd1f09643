package provision

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// loopItems evaluates a task's loop: or with_<lookup>: into its items.
func (pr *playRun) loopItems(t *playbooks.Task, scope *expr.Vars) ([]any, error) {
	loopOver := t.Loop.Items
	if s, ok := loopOver.(string); ok && t.Loop.With != "" {
		// As Ansible's listify_lookup_plugin_terms: a with_ loop's
		// string loses its surrounding blanks before it is rendered.
		loopOver = strings.TrimSpace(s)
	}
	raw, err := expr.RenderDeep(loopOver, scope)
	var u *expr.UndefinedError
	switch {
	case errors.As(err, &u):
		return nil, undefinedTwice(err)
	case err != nil:
		// Ansible's templating text (a type error says the template).
		return nil, &argsError{msg: typeErrorText(err), err: err}
	}
	if t.Loop.With == "" {
		items, ok := raw.([]any)
		if !ok {
			return nil, fmt.Errorf("Invalid data passed to 'loop', it requires a list, got this instead: %s. Hint: If you passed a list/dict of just one element, try adding wantlist=True to your lookup invocation or use q/query instead of lookup.", expr.Str(raw))
		}
		return items, nil
	}
	if err := pr.rn.r.Sandbox.CheckLookup(t.Loop.With); err != nil {
		return nil, err // with_items too: every with_ loop is a lookup
	}
	terms, err := withTerms(t.Loop.With, raw)
	if err != nil {
		return nil, err
	}
	// What the lookup gives is unsafe, as Ansible wraps it: an item is
	// never rendered again.
	if t.Loop.With == "items" {
		// with_items flattens one level, as Ansible's items lookup does.
		var out []any
		for _, v := range terms {
			if inner, ok := v.([]any); ok {
				out = append(out, inner...)
			} else {
				out = append(out, v)
			}
		}
		return unsafeDeep(out).([]any), nil
	}
	items, err := expr.RunLoopLookupIn(scope, t.Loop.With, t.Action, terms)
	if err != nil {
		return nil, err
	}
	return unsafeDeep(items).([]any), nil
}

// withTerms is what a with_<lookup> loop hands its lookup, as Ansible's
// listify_lookup_plugin_terms leaves it: a list as it is, a scalar as the
// one term, and a dict as the dict, which with_dict takes whole, with_list
// and with_indexed_items refuse, and every other lookup iterates as Python
// does, over its keys.
func withTerms(with string, raw any) ([]any, error) {
	switch v := raw.(type) {
	case []any:
		return v, nil
	case map[string]any:
		switch with {
		case "dict":
			return []any{v}, nil
		case "list", "indexed_items":
			return nil, fmt.Errorf("with_%s expects a list", with)
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		terms := make([]any, len(keys))
		for i, k := range keys {
			terms[i] = k
		}
		return terms, nil
	}
	return []any{raw}, nil
}

// loop runs t once per item on h: per-item conditions, per-item results,
// and the aggregate result register: stores ({"results": [...]}). A
// module that can do the items together (tasks.Batcher) gets them in one
// call; each item is still reported on its own.
//
// Each item gets t's keywords evaluated with its loop variables, as
// Ansible evaluates them for each item (delegate_to: "{{ item }}",
// become_user: "{{ item.user }}"); kwFailed says kw, evaluated without
// them, did not evaluate.
func (pr *playRun) loop(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, kwFailed bool) outcome {
	scope := pr.scope(h, t, nil)
	items, err := pr.loopItems(t, scope)
	if err != nil {
		// As Ansible: a loop that uses an undefined variable fails the
		// task only if its when: holds; a task whose when: is false is
		// skipped whatever its loop.
		var u *expr.UndefinedError
		if errors.As(err, &u) {
			if ok, cerr := pr.conditionsHold(h, t, nil); cerr == nil && !ok {
				return skippedByCondition()
			}
		}
		if class, msg, ok := expr.PythonException(err); ok {
			// Ansible's worker catches an exception that is not its own
			// (re.error) while it works out the items.
			return unexpectedFailure(class+": "+msg, msg)
		}
		out := failure(err)
		out.unvalidated = true
		return out
	}
	agg := outcome{skipped: len(items) > 0, loop: true}
	results := make([]any, 0, len(items))
	itemVars, label, err := loopItemVars(t, items, scope)
	if err != nil {
		return failure(err)
	}
	pause, err := loopPause(t, scope)
	if err != nil {
		return failure(err)
	}
	itemKw, same := pr.itemKeywords(h, t, kw, kwFailed, itemVars)
	// As Ansible's loop: the facts an item returns (a failed one's too)
	// are variables of the items after it, above all but the loop's own;
	// the host gets them only if the whole loop did not fail.
	facts, overlay := []loopFact{}, map[string]any{}
	defer func(prev *[]loopFact) { h.loopFacts = prev }(h.loopFacts)
	h.loopFacts = &facts
	run := func(i int) outcome {
		vars := itemVars[i]
		if len(overlay) > 0 {
			vars = maps.Clone(overlay)
			maps.Copy(vars, itemVars[i])
			// As Ansible's: the item's keywords see the facts the items
			// before it set.
			k, err := pr.resolve(t, pr.scope(h, t, vars))
			k.delegates = itemKw[i].kw.delegates
			itemKw[i].kw, itemKw[i].err = k, err
		}
		if itemKw[i].err != nil {
			return pr.keywordFailure(h, t, itemKw[i].err, vars)
		}
		return pr.attempt(ctx, h, t, itemKw[i].kw, vars)
	}
	stopped := func(i int, out outcome) bool { return itemKw[i].err != nil && out.failed }
	if b := pr.batcher(t); b != nil && same && len(items) > 1 && pause == 0 && ctx.Err() == nil && !registerSeen(t) {
		run = pr.batchItems(ctx, h, t, kw, b, itemVars)
	}
	for i, item := range items {
		if ctx.Err() != nil {
			return failure(ctx.Err())
		}
		if i > 0 && pause > 0 {
			// loop_control.pause: the wait between two items.
			select {
			case <-ctx.Done():
				return failure(ctx.Err())
			case <-time.After(pause):
			}
		}
		vars := itemVars[i]
		before := len(facts)
		out := run(i)
		// The label sees the variables as this item left them: its own
		// facts above even the loop's variables.
		labelVars := vars
		if len(overlay) > 0 || len(facts) > before {
			labelVars = maps.Clone(overlay)
			maps.Copy(labelVars, vars)
		}
		for _, f := range facts[before:] {
			if f.kw.delegateTo == "" || !f.kw.delegateFacts {
				maps.Copy(overlay, f.facts)
				maps.Copy(labelVars, f.facts)
			}
		}
		if stopped(i, out) {
			// As Ansible: an item whose keywords do not evaluate
			// fails the whole task, the items done so far forgotten.
			return out
		}
		if out.abort {
			// The task fails with this item's error, as a whole, under
			// ignore_errors as written: Ansible's worker raised out of
			// the item, and its task (not the item's copy, which it
			// evaluated) is the one its strategy reads.
			out.unvalidated = true
			return out
		}
		if out.failed {
			// As Ansible: the first failed item's ignore_errors is the
			// task's, and a later failed item that does not ignore
			// errors makes it false.
			ig := pr.itemIgnoreErrors(h, t, kw, vars)
			if agg.ignoreErrors == nil || !ig {
				agg.ignoreErrors = &ig
			}
		}
		for k, v := range vars {
			if k != t.Register || i == 0 {
				out.data[k] = v // the loop variables, not the register
			}
		}
		if t.Register != "" && i+1 < len(itemVars) {
			// As Ansible's loop: while it runs, the registered name
			// holds the result of the last item that ran (a skipped
			// one leaves it), for the next items' conditions.
			val, ok := vars[t.Register]
			if !out.skipped {
				val, ok = out.data, true
			}
			if ok {
				next := maps.Clone(itemVars[i+1])
				next[t.Register] = val
				itemVars[i+1] = next
			}
		}
		shown := item
		if label != nil {
			v, err := expr.RenderDeep(label, pr.scope(h, t, labelVars))
			var u *expr.UndefinedError
			switch {
			case errors.As(err, &u):
				// As Ansible: the item fails, shown by its value.
				out.failed = true
				out.data["failed"] = true
				out.data["msg"] = "Failed to template loop_control.label: " + undefinedTwice(err).Error()
			case err != nil:
				return failure(fmt.Errorf("%s", typeErrorText(err)))
			default:
				shown = v
			}
		}
		pr.finish(h, t, itemKw[i].kw, out, true, shown)
		results = append(results, out.data)
		// As Ansible's: the task's result is censored when any item's was.
		agg.noLog = agg.noLog || itemKw[i].err == nil && itemKw[i].kw.noLog
		agg.changed = agg.changed || out.changed
		agg.failed = agg.failed || out.failed
		agg.skipped = agg.skipped && out.skipped
		if out.unreachable {
			agg.unreachable, agg.cause = true, out.cause
			break
		}
	}
	if !agg.failed && !agg.unreachable {
		h.loopFacts = nil
		for _, f := range facts {
			if err := pr.applyFacts(h, f.t, f.kw, f.facts); err != nil {
				return failure(err)
			}
		}
	}
	// skipped is there whatever its value, as in Ansible's register.
	agg.data = map[string]any{"results": results, "changed": agg.changed, "msg": "All items completed", "skipped": agg.skipped}
	switch {
	case len(items) == 0:
		// Ansible's result of an empty loop has no msg.
		delete(agg.data, "msg")
		agg.skipped = true
		agg.data["skipped"] = true
		agg.data["skipped_reason"] = "No items in the list"
	case agg.failed:
		agg.data["failed"] = true
		agg.data["msg"] = "One or more items failed"
	case agg.skipped:
		agg.data["skipped"] = true
		agg.data["msg"] = "All items skipped"
	}
	return agg
}

// registerSeen reports whether t's conditions name its register variable,
// which a loop updates item by item (so its items are not batched).
func registerSeen(t *playbooks.Task) bool {
	if t.Register == "" {
		return false
	}
	for _, c := range t.Conditions() {
		if strings.Contains(c, t.Register) {
			return true
		}
	}
	return false
}

// itemIgnoreErrors is ignore_errors as a loop item evaluates it (its
// variables in scope), as Ansible validates a task's keywords item by
// item; kw's value when it does not evaluate there.
func (pr *playRun) itemIgnoreErrors(h *hostRun, t *playbooks.Task, kw keywords, vars map[string]any) bool {
	ik, err := pr.resolve(t, pr.scope(h, t, vars))
	if err != nil {
		return kw.ignoreErrors
	}
	return ik.ignoreErrors
}

// loopPause is loop_control.pause: seconds (a fraction allowed) to wait
// between items, 0 when not given.
func loopPause(t *playbooks.Task, scope expr.Scope) (time.Duration, error) {
	if t.LoopControl == nil || t.LoopControl.Pause == nil {
		return 0, nil
	}
	v, err := expr.RenderDeep(t.LoopControl.Pause, scope)
	if err != nil {
		return 0, fmt.Errorf("loop_control.pause: %w", err)
	}
	var secs float64
	switch x := v.(type) {
	case int:
		secs = float64(x)
	case float64:
		secs = x
	default:
		if _, err := fmt.Sscanf(strings.TrimSpace(expr.Str(v)), "%g", &secs); err != nil {
			return 0, fmt.Errorf("loop_control.pause: %s is not a number of seconds", expr.Repr(v))
		}
	}
	if secs < 0 || secs > 86400 {
		return 0, fmt.Errorf("loop_control.pause: %v seconds is out of range", secs)
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// loopItemVars returns the variables each item of a loop sets: the loop
// variable, ansible_loop_var, the index variable and ansible_index_var
// when loop_control names one, and ansible_loop when loop_control has
// extended (index, index0, revindex, revindex0, first, last, length,
// allitems unless extended_allitems is false, previtem and nextitem where
// there is one), as Ansible sets them, in the task's vars and its result.
// It also returns loop_control.label, unrendered.
func loopItemVars(t *playbooks.Task, items []any, scope expr.Scope) ([]map[string]any, any, error) {
	loopVar, indexVar, label, err := loopNames(t, scope)
	if err != nil {
		return nil, nil, err
	}
	extended, allItems := false, true
	if lc := t.LoopControl; lc != nil {
		if lc.Extended.Set {
			if extended, err = boolValue(lc.Extended, scope); errors.Is(err, errOmitted) {
				extended = false
			} else if err != nil {
				return nil, nil, fmt.Errorf("loop_control.extended: %w", err)
			}
		}
		if lc.ExtendedAllItems.Set {
			if allItems, err = boolValue(lc.ExtendedAllItems, scope); errors.Is(err, errOmitted) {
				allItems = true
			} else if err != nil {
				return nil, nil, fmt.Errorf("loop_control.extended_allitems: %w", err)
			}
		}
	}
	n := len(items)
	out := make([]map[string]any, n)
	for i, item := range items {
		v := map[string]any{loopVar: item, "ansible_loop_var": loopVar}
		if indexVar != "" {
			v[indexVar] = i
			v["ansible_index_var"] = indexVar
		}
		if extended {
			l := map[string]any{"index": i + 1, "index0": i, "first": i == 0, "last": i == n-1, "length": n,
				"revindex": n - i, "revindex0": n - i - 1}
			if allItems {
				l["allitems"] = items
			}
			if i+1 < n {
				l["nextitem"] = items[i+1]
			}
			if i > 0 {
				l["previtem"] = items[i-1]
			}
			v["ansible_loop"] = l
		}
		out[i] = v
	}
	return out, label, nil
}

// unexpectedFailure is the result Ansible's worker makes of a Python
// exception that is not its own (exception: its class and text) raised
// while the task ran: msg says so, and stdout is empty.
func unexpectedFailure(exception, msg string) outcome {
	return outcome{failed: true, data: map[string]any{"failed": true, "stdout": "",
		"msg":       "Unexpected failure during module execution: " + msg,
		"exception": exception + "\n"}}
}
