package control

import (
	"context"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// TestSetStatsOptions: per_host and aggregate are read as Ansible's
// set_stats reads them, leniently: a value that is not a true one is
// false ("x" too); data must be a mapping of identifiers.
func TestSetStatsOptions(t *testing.T) {
	for _, c := range []struct {
		args               tasks.Args
		perHost, aggregate bool
		failed             string
	}{
		{tasks.Args{"data": map[string]any{"a": 1}}, false, true, ""},
		{tasks.Args{"data": map[string]any{"a": 1}, "aggregate": "x", "per_host": "yes"}, true, false, ""},
		{tasks.Args{"data": map[string]any{"a": 1}, "aggregate": "on", "per_host": 0}, false, true, ""},
		{tasks.Args{"data": []any{1, 2}}, false, false, "The 'data' option needs to be a dictionary/hash"},
		{tasks.Args{"data": map[string]any{".bad": 1}}, false, false, "The variable name '.bad' is not valid. Variables must start with a letter or underscore character, and contain only letters, numbers and underscores."},
	} {
		res, err := setStatsModule{}.Run(context.Background(), nil, c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if c.failed != "" {
			if !res.Failed || res.Msg != c.failed {
				t.Errorf("%v: %+v, want failure %q", c.args, res, c.failed)
			}
			continue
		}
		st := res.Data["ansible_stats"].(map[string]any)
		if st["per_host"] != c.perHost || st["aggregate"] != c.aggregate {
			t.Errorf("%v: per_host %v aggregate %v", c.args, st["per_host"], st["aggregate"])
		}
	}
}
