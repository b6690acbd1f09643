package provision

import (
	"context"
	"fmt"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// loopItems evaluates a task's loop: or with_<lookup>: into its items.
func (pr *playRun) loopItems(t *playbooks.Task, scope *expr.Vars) ([]any, error) {
	raw, err := expr.RenderDeep(t.Loop.Items, scope)
	if err != nil {
		return nil, fmt.Errorf("loop: %w", err)
	}
	switch t.Loop.With {
	case "":
		items, ok := raw.([]any)
		if !ok {
			return nil, fmt.Errorf("Invalid data passed to 'loop', it requires a list, got this instead: %s. Hint: If you passed a list/dict of just one element, try adding wantlist=True to your lookup invocation or use q/query instead of lookup.", expr.Repr(raw))
		}
		return items, nil
	case "items":
		// with_items flattens one level, as Ansible's items lookup does.
		list, ok := raw.([]any)
		if !ok {
			list = []any{raw}
		}
		var out []any
		for _, v := range list {
			if inner, ok := v.([]any); ok {
				out = append(out, inner...)
			} else {
				out = append(out, v)
			}
		}
		return out, nil
	}
	terms, ok := raw.([]any)
	if !ok {
		terms = []any{raw}
	}
	return expr.RunLookup(scope.LookupEnv(), t.Loop.With, terms, nil)
}

// loop runs t once per item on h: per-item conditions, per-item results,
// and the aggregate result register: stores ({"results": [...]}). A
// module that can do the items together (tasks.Batcher) gets them in one
// call; each item is still reported on its own.
func (pr *playRun) loop(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords) outcome {
	scope := pr.scope(h, t, nil)
	items, err := pr.loopItems(t, scope)
	if err != nil {
		return failure(err)
	}
	loopVar, indexVar, label := loopNames(t)
	agg := outcome{skipped: len(items) > 0, loop: true}
	results := make([]any, 0, len(items))
	itemVars := make([]map[string]any, len(items))
	for i, item := range items {
		itemVars[i] = map[string]any{loopVar: item, "ansible_loop_var": loopVar}
		if indexVar != "" {
			itemVars[i][indexVar] = i
			itemVars[i]["ansible_index_var"] = indexVar
		}
	}
	run := func(i int) outcome { return pr.attempt(ctx, h, t, kw, itemVars[i]) }
	if b := pr.batcher(t); b != nil && len(items) > 1 && ctx.Err() == nil {
		run = pr.batchItems(ctx, h, t, kw, b, itemVars)
	}
	for i, item := range items {
		if ctx.Err() != nil {
			return failure(ctx.Err())
		}
		vars := itemVars[i]
		out := run(i)
		out.data[loopVar] = item
		out.data["ansible_loop_var"] = loopVar
		if indexVar != "" {
			out.data[indexVar] = i
			out.data["ansible_index_var"] = indexVar
		}
		shown := item
		if label != nil {
			if v, err := expr.RenderDeep(label, pr.scope(h, t, vars)); err == nil {
				shown = v
			}
		}
		pr.finish(h, t, kw, out, true, shown)
		results = append(results, out.data)
		agg.changed = agg.changed || out.changed
		agg.failed = agg.failed || out.failed
		agg.skipped = agg.skipped && out.skipped
		if out.unreachable {
			agg.unreachable = true
			break
		}
	}
	agg.data = map[string]any{"results": results, "changed": agg.changed, "msg": "All items completed"}
	switch {
	case len(items) == 0:
		agg.skipped = true
		agg.data["skipped"] = true
		agg.data["skipped_reason"] = "No items in the list"
	case agg.failed:
		agg.data["failed"] = true
		agg.data["msg"] = "One or more items failed"
	case agg.skipped:
		agg.data["skipped"] = true
	}
	return agg
}
