package provision

import (
	"context"
	"fmt"
	"reflect"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/tasks"
)

// batcher returns t's module as a tasks.Batcher when t's loop items may
// be done in one call: the module is one, and t has no until/retries, no
// async and no loop pause (each needs the items one at a time).
func (pr *playRun) batcher(t *playbooks.Task) tasks.Batcher {
	switch {
	case len(t.Until) > 0 || t.Async != nil:
		return nil
	case t.LoopControl != nil && t.LoopControl.Pause != nil:
		return nil
	case pr.rn.engine(t) != tasks.NotEngine:
		return nil
	}
	f, err := pr.factory(t)
	if err != nil || f == nil {
		return nil
	}
	b, _ := f().(tasks.Batcher)
	return b
}

// aborts reports whether one of the decided outcomes ends the loop.
func aborts(decided []*outcome) bool {
	for _, o := range decided {
		if o != nil && o.abort {
			return true
		}
	}
	return false
}

// batchItems does a loop's items on h with b, in one call when it can, and
// returns each item's outcome by index (vars holds each item's loop
// variables). Every item's when: is evaluated first, in order: a skipped
// item stays skipped and is not given to the module. The others'
// arguments are rendered and handed to b.Batch together; each item's
// result then gets its own changed_when and failed_when. When fewer than
// two items remain, their connections differ (become or environment
// templated with the item), or the module says they cannot go together,
// each runs on its own as it would without batching (its when: is not
// evaluated again).
//
// Unlike one at a time, an item's when: cannot see facts an earlier item
// of the same loop set: batchable modules set none.
func (pr *playRun) batchItems(ctx context.Context, h *hostRun, t *playbooks.Task, kw keywords, b tasks.Batcher, vars []map[string]any) func(i int) outcome {
	decided := make([]*outcome, len(vars))
	decide := func(i int, out outcome) { decided[i] = &out }
	var todo []int
	for i, v := range vars {
		ok, err := pr.conditionsHold(h, t, v)
		switch {
		case err != nil:
			out := aborting(err)
			out.unvalidated = true
			decide(i, out)
		case !ok:
			decide(i, skippedByCondition())
		default:
			todo = append(todo, i)
		}
	}
	each := func(i int) outcome {
		if decided[i] != nil {
			return *decided[i]
		}
		return pr.invoke(ctx, h, t, kw, pr.scope(h, t, vars[i]))
	}
	if len(todo) < 2 || aborts(decided) {
		// An item that ends the loop leaves the ones after it undone:
		// one at a time, the loop stops there.
		return each
	}
	var calls []call
	var idx []int
	for _, i := range todo {
		c, err := pr.prepare(ctx, h, t, kw, pr.scope(h, t, vars[i]))
		if err != nil {
			decide(i, prepareFailure(err))
			if decided[i].abort {
				return each
			}
			continue
		}
		if len(calls) > 0 && !reflect.DeepEqual(c.via, calls[0].via) {
			return each
		}
		calls, idx = append(calls, c), append(idx, i)
	}
	if len(calls) < 2 {
		return each
	}
	items := make([]tasks.Args, len(calls))
	for k, c := range calls {
		items[k] = c.args
	}
	results, ok, err := b.Batch(ctx, calls[0].env, items)
	switch {
	case err == nil && !ok:
		return each
	case err == nil && len(results) != len(items):
		err = fmt.Errorf("module %s returned %d results for %d items", t.Module, len(results), len(items))
	}
	for k, i := range idx {
		if err != nil {
			decide(i, failure(err))
			continue
		}
		out, jerr := pr.judge(t, pr.scope(h, t, vars[i]), results[k])
		if jerr != nil {
			decide(i, failure(jerr))
			continue
		}
		decide(i, pr.settle(h, t, kw, pr.scope(h, t, vars[i]), out))
	}
	return each
}
