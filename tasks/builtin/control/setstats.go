package control

import (
	"context"
	"fmt"

	"github.com/tender-sh/tender/tasks"
)

// setStatsModule returns custom statistics (Data["ansible_stats"]) that
// the engine gathers into the run's recap, per host or for the whole run,
// added up over tasks (aggregate) or replaced.
type setStatsModule struct{}

var _ tasks.Module = (*setStatsModule)(nil)

// Run checks data's names and the two options.
func (setStatsModule) Run(_ context.Context, _ *tasks.Env, args tasks.Args) (tasks.Result, error) {
	for k := range args {
		if k != "data" && k != "per_host" && k != "aggregate" {
			return tasks.Result{}, fmt.Errorf("Invalid options for set_stats: %s", k)
		}
	}
	stats := map[string]any{"data": map[string]any{}, "per_host": false, "aggregate": true}
	if v, ok := args["data"]; ok {
		data, isMap := v.(map[string]any)
		if !isMap {
			return tasks.Result{Failed: true, Msg: "The 'data' option needs to be a dictionary/hash"}, nil
		}
		for k := range data {
			if !identifier.MatchString(k) {
				return tasks.Result{Failed: true, Msg: fmt.Sprintf("The variable name '%s' is not valid. Variables must start with a letter or underscore character, and contain only letters, numbers and underscores.", k)}, nil
			}
		}
		// Stats are shown and added up, never templated: plain data.
		stats["data"] = tasks.Plain(data)
	}
	// As Ansible's set_stats reads them: leniently, anything that is not
	// a true value (yes, on, 1, …) being false.
	for _, opt := range []string{"per_host", "aggregate"} {
		if v, ok := args[opt]; ok && v != nil {
			b, err := tasks.ParseBool(v)
			stats[opt] = err == nil && b
		}
	}
	return tasks.Result{Data: map[string]any{"ansible_stats": stats}}, nil
}

func (setStatsModule) Spec() *tasks.Spec { return setStatsSpec }
