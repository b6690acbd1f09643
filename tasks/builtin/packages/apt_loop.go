package packages

import (
	"context"
	"reflect"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// RunLoop runs a loop's items (each item's arguments, templated) as one
// apt-get call, for an engine that batches loops over packages: it
// returns one result per item, in order, shaped as Ansible registers each
// item of such a loop, and ok=false (having changed nothing) when the
// items cannot be merged: they differ in anything but the package names,
// a name holds a wildcard, or a package cannot be installed (the engine
// then runs the items one by one, and the failing item fails alone, as
// in Ansible).
//
// The items that needed apt-get share its stdout and stderr; the cache
// is updated at most once, reported on the first item.
func (aptModule) RunLoop(ctx context.Context, env *tasks.Env, items []tasks.Args) (results []tasks.Result, ok bool, err error) {
	if len(items) == 0 {
		return nil, false, nil
	}
	var first tasks.Values
	var specs [][]string
	for _, it := range items {
		a, err := aptArgs.Decode(it)
		if err != nil {
			return nil, false, nil
		}
		names := a.Strings("package")
		delete(a, "package")
		if first == nil {
			first = a
		} else if !reflect.DeepEqual(first, a) {
			return nil, false, nil
		}
		for _, n := range names {
			if strings.ContainsAny(n, "*?[]!\n") || strings.Count(n, "=") > 1 || strings.TrimSpace(n) == "*" {
				return nil, false, nil
			}
		}
		specs = append(specs, names)
	}
	j := aptJob{state: first.Str("state"), release: first.Str("default_release"),
		update: first.Bool("update_cache") || first.Int("cache_valid_time") > 0, check: env.Check, diff: env.Diff, a: first}
	if first.Str("deb") != "" || j.state == "build-dep" || j.state == "fixed" {
		return nil, false, nil
	}
	for _, l := range specs {
		for _, n := range l {
			j.specs = append(j.specs, strings.TrimSpace(n))
		}
	}
	if len(j.specs) == 0 {
		return nil, false, nil
	}
	out, err := shared.RunSplitLib(ctx, env, j.script(""), nil)
	if err != nil {
		return nil, false, err
	}
	v, output := shared.SplitOutput(out.Stdout)
	switch v["verdict"] {
	case "ran", "noop":
	default:
		return nil, false, nil
	}
	head, _, _ := strings.Cut(string(out.Stdout), "\n--output--\n")
	need := map[string]bool{}
	for _, l := range strings.Split(head, "\n") {
		if s, ok := strings.CutPrefix(l, "item="); ok {
			need[s] = true
		}
	}
	ran := j.result(v, output)
	idle := j.result(shared.Verdict{"verdict": "noop", "cache_update_time": v["cache_update_time"]}, "")
	for i, l := range specs {
		r := idle
		for _, n := range l {
			if need[strings.TrimSpace(n)] {
				r = ran
			}
		}
		r.Data = copyMap(r.Data)
		if i == 0 && v["cache_updated"] == "1" {
			r.Data["cache_updated"] = true
			r.Changed = true
		}
		results = append(results, r)
	}
	return results, true, nil
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
