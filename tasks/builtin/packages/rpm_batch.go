package packages

import (
	"context"
	"slices"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

var _ tasks.Batcher = rpmModule{}

// Batch does a loop's dnf or yum items in one round trip and one
// transaction: items that differ only in their package names (name or
// pkg) are merged into one job, and each item's result is what Run would
// have returned for it had the items run one after the other, as
// ansible-core runs them:
//
//   - an item is changed only for the packages its own transaction would
//     have changed: the packages it names that the merged transaction
//     added, upgraded or removed (a package two items name counts for the
//     first), with the dependencies they pulled in (installing) or the
//     packages that needed them (removing), unless an earlier item's
//     packages already account for them; its results list those, as Run's
//     ("Installed: NEVRA", "Removed: NEVRA", sorted);
//   - an unchanged item gets Run's "Nothing to do";
//   - in check mode nothing changes between items, so each item reports
//     the packages of its own that differ, as Run does.
//
// The cache is refreshed (update_cache) once for the loop. Items with a
// local .rpm, a path or URL, a wildcard, a group (@name), a version
// comparison, autoremove or one of rpmUnmerged are not merged (ok=false), nor items one of
// whose packages is not available: those run one by one, so that the
// failure lands on its item, having changed nothing. When the merged
// transaction itself fails, each item is run alone with Run.
func (m rpmModule) Batch(ctx context.Context, env *tasks.Env, items []tasks.Args) ([]tasks.Result, bool, error) {
	specs, ok := rpmMergeable(m.tool, items)
	if !ok {
		return nil, false, nil
	}
	j, _, err := m.job(ctx, env, items[0])
	if j == nil || err != nil {
		return nil, false, nil
	}
	j.names = nil
	for _, s := range specs {
		for _, n := range s {
			if !slices.Contains(j.names, n) {
				j.names = append(j.names, n)
			}
		}
	}
	out, err := shared.Run(ctx, env, j.script(env.Check, true), nil)
	if err != nil {
		return nil, false, err
	}
	headText, output, _ := strings.Cut(string(out.Stdout), "\n--output--\n")
	head := strings.Split(headText, "\n")
	v := shared.ParseVerdict([]byte(headText))
	nothing := rpmResult(shared.Verdict{"verdict": "nothing"}, nil, "")
	results := make([]tasks.Result, len(items))
	switch {
	case v["verdict"] == "nothing":
		for i := range results {
			results[i] = rpmResult(v, nil, "")
		}
		return results, true, nil
	case v["verdict"] == "check":
		for i, item := range specs {
			results[i] = nothing
			if lines := rpmCheckLines(head, item); len(lines) > 0 {
				results[i] = rpmResult(v, lines, output)
			}
		}
		return results, true, nil
	case v["verdict"] == "ran" && v["rc"] == "0":
	case v["verdict"] == "ran":
		res, err := shared.RunEach(ctx, env, m, items)
		return res, err == nil, err
	default: // a package that is not available, or no dnf: nothing was done
		return nil, false, nil
	}
	owner := rpmAttribute(head, specs, j.state == "absent")
	for i := range specs {
		var lines []string
		for _, l := range head {
			k, nevra, _ := strings.Cut(l, "=")
			if (k == "installed" || k == "removed") && owner[rpmName(nevra)] == i {
				lines = append(lines, l)
			}
		}
		results[i] = nothing
		if len(lines) > 0 {
			results[i] = rpmResult(v, lines, output)
		}
	}
	return results, true, nil
}

// rpmMergeable returns each item's package specs when the items can be
// one transaction: the same arguments but for the packages, a state that
// names packages, no autoremove, and at least one plain package spec (a
// name, or name-version) each.
func rpmMergeable(tool string, items []tasks.Args) ([][]string, bool) {
	return mergeSpecs(items, []string{"name", "pkg"}, func(item tasks.Args) ([]string, bool) {
		a, err := rpmSpecs[tool].Decode(item)
		if err != nil || a.Bool("autoremove") {
			return nil, false
		}
		// Options whose transaction is not the items' one after the
		// other: left to Run.
		for _, k := range rpmUnmerged {
			if a.Bool(k) {
				return nil, false
			}
		}
		var specs []string
		for _, s := range a.Strings("name") {
			if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, "*?[]/@<>=!~ \t\n\r\\'\"") ||
				strings.HasSuffix(s, ".rpm") || strings.HasPrefix(s, "-") {
				return nil, false
			}
			specs = append(specs, s)
		}
		return specs, true
	})
}

// rpmUnmerged are the options with which a loop's items run one by one:
// what download_only reports comes from dnf's tables, update_only's
// results name what it left alone, allowerasing removes what an item
// conflicts with, skip_broken leaves out what would fail an item, and
// security and bugfix filter what each item may have.
var rpmUnmerged = []string{"download_only", "update_only", "allowerasing", "skip_broken", "security", "bugfix"}

// rpmName is the name of a NEVRA (name-[epoch:]version-release.arch).
func rpmName(nevra string) string {
	n := nevra
	for range 2 {
		if i := strings.LastIndexByte(n, '-'); i > 0 {
			n = n[:i]
		}
	}
	return n
}

// rpmMatches tells whether spec (a name, or name-version[-release[.arch]])
// names the package nevra.
func rpmMatches(spec, nevra string) bool {
	n := rpmName(nevra)
	if spec == n {
		return true
	}
	if !strings.HasPrefix(spec, n+"-") {
		return false
	}
	plain := nevra
	if e := strings.IndexByte(nevra[len(n)+1:], ':'); e >= 0 {
		plain = n + "-" + nevra[len(n)+1+e+1:]
	}
	for _, full := range []string{nevra, plain} {
		if full == spec || strings.HasPrefix(full, spec+"-") || strings.HasPrefix(full, spec+".") {
			return true
		}
	}
	return false
}

// rpmCheckLines are the lines of a check run's verdict that are item's:
// installed=<spec> for its specs, removed=<nevra> for what they name.
func rpmCheckLines(head []string, item []string) []string {
	var lines []string
	for _, l := range head {
		k, val, _ := strings.Cut(l, "=")
		switch {
		case slices.Contains(lines, l):
		case k == "installed" && slices.Contains(item, val):
			lines = append(lines, l)
		case k == "removed" && slices.ContainsFunc(item, func(s string) bool { return rpmMatches(s, val) }):
			lines = append(lines, l)
		}
	}
	return lines
}

// rpmAttribute says which item's own transaction would have changed each
// package the merged one changed (by name), replaying the items in order:
// an item takes the changed packages it names that no earlier item took,
// then, installing, the changed packages these require (and so on), or,
// removing, the changed packages that require them (and so on), as dnf
// pulls in dependencies and removes dependent packages. The
// dependencies come from the verdict's req= and prov= lines. A changed
// package no item accounts for goes to the first item.
func rpmAttribute(head []string, specs [][]string, removing bool) map[string]int {
	changed := map[string][]string{} // name: its NEVRAs that changed
	var order []string
	requires := map[string][]string{} // name: capabilities
	provides := map[string][]string{} // capability: names
	for _, l := range head {
		k, val, _ := strings.Cut(l, "=")
		switch k {
		case "installed", "removed":
			n := rpmName(val)
			if _, ok := changed[n]; !ok {
				order = append(order, n)
			}
			changed[n] = append(changed[n], val)
		case "req", "prov":
			n, c, ok := strings.Cut(val, "\t")
			if !ok {
				continue
			}
			if k == "req" {
				requires[n] = append(requires[n], c)
			} else {
				provides[c] = append(provides[c], n)
			}
		}
	}
	owner := map[string]int{}
	needs := func(a, b string) bool { // a requires something b provides
		for _, c := range requires[a] {
			if slices.Contains(provides[c], b) {
				return true
			}
		}
		return false
	}
	for i, item := range specs {
		var queue []string
		for _, n := range order {
			if _, taken := owner[n]; taken {
				continue
			}
			if slices.ContainsFunc(item, func(s string) bool {
				return slices.ContainsFunc(changed[n], func(nevra string) bool { return rpmMatches(s, nevra) })
			}) {
				owner[n] = i
				queue = append(queue, n)
			}
		}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, n := range order {
				if _, taken := owner[n]; taken {
					continue
				}
				if !removing && needs(p, n) || removing && needs(n, p) {
					owner[n] = i
					queue = append(queue, n)
				}
			}
		}
	}
	for _, n := range order {
		if _, taken := owner[n]; !taken {
			owner[n] = 0
		}
	}
	return owner
}
