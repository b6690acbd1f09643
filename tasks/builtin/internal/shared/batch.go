package shared

import (
	"context"

	"github.com/tender-sh/tender/tasks"
)

// RunEach runs each item with m's Run, in order, as the engine would
// without batching: what a module's Batch falls back to when the merged
// call failed, so that each failure lands on its own item.
func RunEach(ctx context.Context, env *tasks.Env, m tasks.Module, items []tasks.Args) ([]tasks.Result, error) {
	out := make([]tasks.Result, len(items))
	for i, item := range items {
		res, err := m.Run(ctx, env, item)
		if err != nil {
			return nil, err
		}
		out[i] = res
	}
	return out, nil
}
