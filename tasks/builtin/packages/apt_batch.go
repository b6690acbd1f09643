package packages

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

var _ tasks.Batcher = aptModule{}

// Batch does a loop's apt items in one round trip and one apt-get: items
// that differ only in their package names (name, pkg or package) are
// merged into one job, and each item's result is what Run would have
// returned for it had the items run one after the other:
//
//   - changed only for an item some of whose packages apt-get installed,
//     upgraded or removed (a package two items name counts for the first);
//   - an unchanged item gets Run's "nothing to do" result;
//   - cache_updated: when the cache was refreshed, every item says so
//     without cache_valid_time (Ansible refreshes once per item then) and
//     only the first with it (the later items find the cache fresh), except
//     in check mode, where nothing refreshes and every item says so.
//
// What differs from Ansible item by item: a changed item's stdout,
// stderr, their _lines and diff are those of the one shared apt-get,
// which names every item's packages, and every item has the same
// cache_update_time.
//
// When the merged job fails (a package that does not exist, apt-get
// failing), each item is run alone with Run, so that the failure lands on
// the item that causes it and the others are done as they would be item
// by item; only a failing loop pays the extra round trips. Items with a
// deb, autoremove, wildcards, or one package named with two different
// specs are not merged (ok=false): Run does them one by one.
func (m aptModule) Batch(ctx context.Context, env *tasks.Env, items []tasks.Args) ([]tasks.Result, bool, error) {
	specs, ok := aptMergeable(items)
	if !ok {
		return nil, false, nil
	}
	a, err := aptArgs.Decode(items[0])
	if err != nil {
		return nil, false, nil
	}
	j := aptJob{state: a.Str("state"), release: a.Str("default_release"),
		update: a.Bool("update_cache") || a.Int("cache_valid_time") > 0, check: env.Check, diff: env.Diff, a: a}
	for _, s := range specs {
		j.specs = append(j.specs, s...)
	}
	out, err := shared.RunSplitLib(ctx, env, j.script(""), nil)
	if err != nil {
		return nil, false, err
	}
	v, output := shared.SplitOutput(out.Stdout)
	if v["verdict"] != "ran" && v["verdict"] != "noop" || v["verdict"] == "ran" && v["rc"] != "0" {
		res, err := shared.RunEach(ctx, env, m, items)
		return res, err == nil, err
	}
	ran := j.result(v, output)
	noop := j.result(shared.Verdict{"verdict": "noop", "cache_updated": v["cache_updated"],
		"cache_update_time": v["cache_update_time"], "warning": v["warning"]}, "")
	touched := map[string]bool{}
	if v["verdict"] == "ran" {
		for _, n := range aptTouched(v, j.state) {
			touched[n] = true
		}
	}
	results := make([]tasks.Result, len(items))
	for i, item := range specs {
		res := noop
		for _, s := range item {
			if n := aptSpecName(s); touched[n] {
				res = ran
				delete(touched, n)
			}
		}
		res.Data = maps.Clone(res.Data)
		if _, ok := res.Data["cache_updated"]; ok && i > 0 && a.Int("cache_valid_time") > 0 && !env.Check {
			res.Data["cache_updated"] = false
		}
		results[i] = res
	}
	return results, true, nil
}

// aptPackageKeys are the argument names that hold apt's packages.
var aptPackageKeys = []string{"name", "pkg", "package"}

// aptMergeable returns each item's package specs when the items can be
// one apt-get: the same arguments but for the packages, valid ones Run
// would pass to the script unchanged, and at least one package each.
func aptMergeable(items []tasks.Args) ([][]string, bool) {
	seen := map[string]string{} // package name: the spec that named it
	return mergeSpecs(items, aptPackageKeys, func(item tasks.Args) ([]string, bool) {
		a, err := aptArgs.Decode(item)
		if err != nil {
			return nil, false
		}
		switch a.Str("state") {
		case "present", "latest", "absent":
		default:
			return nil, false
		}
		if a.Str("deb") != "" || a.Bool("autoremove") {
			return nil, false
		}
		var specs []string
		for _, s := range a.Strings("package") {
			s = strings.TrimSpace(s)
			if s == "" || strings.Count(s, "=") > 1 || strings.ContainsAny(s, "*?[]!\n\r") {
				return nil, false
			}
			n := aptSpecName(s)
			if prev, ok := seen[n]; ok && prev != s {
				return nil, false
			}
			seen[n] = s
			specs = append(specs, s)
		}
		return specs, true
	})
}

// aptSpecName is the package name of a spec (name, name=ver, name>=ver),
// as the script cuts it.
func aptSpecName(s string) string {
	if n, _, ok := strings.Cut(s, ">="); ok {
		return n
	}
	n, _, _ := strings.Cut(s, "=")
	return n
}

// aptTouched names the packages the script's apt-get was given: the
// quoted words after "install" in cmd (name=version, or a name alone for
// a virtual package), or those of what for a removal.
func aptTouched(v shared.Verdict, state string) []string {
	words := v["what"]
	if state != "absent" {
		_, words, _ = strings.Cut(v["cmd"], " install '")
		words = " '" + words
	}
	var names []string
	for strings.HasPrefix(words, " '") {
		w, rest, ok := strings.Cut(words[2:], "'")
		if !ok {
			break
		}
		names = append(names, aptSpecName(w))
		words = rest
	}
	return names
}

var _ tasks.Batcher = packageModule{}

// Batch hands a loop's items to the package manager's module in one call
// when that module can batch them (apt can): the items must name the same
// manager (use). Finding the manager may cost one probe, as Run's does;
// when the manager cannot batch, the items run one by one (ok=false).
func (m packageModule) Batch(ctx context.Context, env *tasks.Env, items []tasks.Args) ([]tasks.Result, bool, error) {
	for _, item := range items {
		if _, err := packageArgs.Decode(withoutExtra(item, packageArgs)); err != nil || item["use"] != items[0]["use"] {
			return nil, false, nil
		}
	}
	mod, res, err := m.manager(ctx, env, items[0])
	if err != nil {
		return nil, false, err
	}
	if mod == nil {
		return slices.Repeat([]tasks.Result{res}, len(items)), true, nil
	}
	b, ok := mod.(tasks.Batcher)
	if !ok {
		return nil, false, nil
	}
	fwd := make([]tasks.Args, len(items))
	for i, item := range items {
		fwd[i] = forwarded(item)
	}
	return b.Batch(ctx, env, fwd)
}
