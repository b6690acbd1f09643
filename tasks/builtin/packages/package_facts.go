package packages

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// packageFactsModule returns the installed packages as the fact
// "packages", as Ansible's package_facts does: a name maps to the list of
// its installed versions, each with name, version, source (the manager)
// and, for apt, arch, category (the section) and origin (the Origin of
// the first package file that holds the installed version, as
// python-apt's origins[0]); for rpm, release, epoch (null when none) and
// arch. One round trip runs dpkg-query and apt-cache policy, or rpm -qa.
//
// tender reads apt and rpm, with the host's own tools: it needs neither
// python-apt nor the rpm Python bindings, so a host without them gives
// the packages where Ansible warns and finds nothing. manager "auto"
// tries apt and rpm in the host's own order (apt first where os-release
// says Debian or Ubuntu), where Ansible's order is its Python set's. The
// other managers Ansible knows (apk, pacman, pkg, pkg_info, portage) are
// refused when their tool is on the host, and skipped, as Ansible skips
// them, when it is not.
type packageFactsModule struct{}

var _ tasks.Module = packageFactsModule{}

var packageFactsArgs = &tasks.Spec{
	Module: "package_facts",
	Params: []tasks.Param{
		{Name: "manager", Kind: tasks.List, Default: []any{"auto"}},
		{Name: "strategy", Default: "first", Choices: []string{"first", "all"}},
	},
}

// Spec returns package_facts' parameters.
func (packageFactsModule) Spec() *tasks.Spec { return packageFactsArgs }

// pkgFactsManagers are the managers Ansible's package_facts knows; those
// after apt and rpm are the ones tender does not read.
var pkgFactsManagers = []string{"apt", "rpm", "apk", "pacman", "pkg", "pkg_info", "portage"}

// packageFactsJob is one package_facts task: the managers to go
// through, in order, and those the task named.
type packageFactsJob struct {
	// managers are the lower-cased names, "auto" replaced by "@native"
	// and the managers tender does not read.
	managers []string
	// requested are the names as the task gave them.
	requested map[string]bool
	strategy  string
}

// Run lists the installed packages.
func (packageFactsModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := packageFactsArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad := decodePackageFacts(a)
	if bad != nil {
		return *bad, nil
	}
	res, err := shared.Run(ctx, env, j.script(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(res)
}

// decodePackageFacts plans the managers to go through. A non-nil result
// is the failure Ansible reports for a manager it does not know.
func decodePackageFacts(a tasks.Values) (*packageFactsJob, *tasks.Result) {
	given := a.Strings("manager")
	j := &packageFactsJob{requested: map[string]bool{}, strategy: a.Str("strategy")}
	for _, m := range given {
		j.managers = append(j.managers, strings.ToLower(m))
	}
	for _, m := range given {
		j.requested[m] = true
	}
	if i := pkgFactsIndex(j.managers, "auto"); i >= 0 {
		j.managers = append(append(j.managers[:i:i], j.managers[i+1:]...), "@native")
		j.managers = append(j.managers, pkgFactsManagers[2:]...)
	}
	var unsupported []string
	for _, m := range j.managers {
		if m != "@native" && pkgFactsIndex(pkgFactsManagers, m) < 0 && pkgFactsIndex(unsupported, m) < 0 {
			unsupported = append(unsupported, m)
		}
	}
	if len(unsupported) == 0 {
		return j, nil
	}
	r := shared.Fail("Unsupported package managers requested: " + strings.Join(unsupported, ", "))
	if j.requested["auto"] {
		r = shared.Fail("Could not auto detect a usable package manager, check warnings for details.")
	}
	return j, &r
}

// script is package_facts.sh with the managers and the strategy
// assigned before it.
func (j *packageFactsJob) script() string {
	return shared.SysFuncs + shared.DebBlobFuncs + shared.ShAssign([][2]string{{"managers", strings.Join(j.managers, " ")},
		{"strategy", j.strategy}}) + packageFactsScript
}

// result turns the script's output into the packages fact, the failure
// when no manager was found, or an error for a manager tender does not
// read.
func (j *packageFactsJob) result(res transport.Result) (tasks.Result, error) {
	v, blobs := shared.ParseDebBlobs(string(res.Stdout))
	if u := v["unsupported"]; u != "" {
		m, path, _ := strings.Cut(u, " ")
		return tasks.Result{}, fmt.Errorf("package_facts: this host has %s (package manager %s), whose packages tender does not read: it reads apt and rpm; name the managers to use (manager: [apt] or [rpm])", path, m)
	}
	if v["done"] != "1" {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	byName := map[string]string{}
	for _, b := range blobs {
		byName[b.Name] = b.Body
	}
	packages := map[string]any{}
	var warnings []string
	found := 0
	for _, m := range foundManagers(res.Stdout) {
		found++
		list, msg := pkgFactsList(m, v, byName)
		if msg != "" {
			if j.requested[m] {
				warnings = append(warnings, fmt.Sprintf("Requested package manager %s was not usable by this module: %s", m, msg))
			}
			continue
		}
		pkgFactsMerge(packages, list)
	}
	if found == 0 {
		return tasks.Result{Failed: true, Warnings: warnings, Msg: fmt.Sprintf("Could not detect a supported package manager from the following list: %s, "+
			"or the required Python library is not installed. Check warnings for details.", pkgFactsPyList(strings.Fields(v["order"]))),
			Data: map[string]any{}}, nil
	}
	return tasks.Result{Warnings: warnings, Data: map[string]any{"ansible_facts": map[string]any{"packages": packages}}}, nil
}

// pkgFactsList is the packages manager m listed, from the script's
// verdict and blobs, or msg saying why it could not list them.
func pkgFactsList(m string, v shared.Verdict, byName map[string]string) (list []map[string]any, msg string) {
	switch m {
	case "apt":
		if e, bad := byName["dpkg_err"]; bad {
			return nil, "Unable to list packages: " + strings.TrimSpace(e)
		}
		list = aptPackages(byName["dpkg"], v["native"], byName["files"], byName["policy"])
	case "rpm":
		if e, bad := byName["rpm_err"]; bad {
			return nil, "Unable to list packages: " + strings.TrimSpace(e)
		}
		list = rpmPackages(byName["rpm"])
	}
	return list, ""
}

// pkgFactsMerge adds one manager's list to packages, grouping the
// versions of each name. As Ansible: a later manager's list of a name
// replaces an earlier one's.
func pkgFactsMerge(packages map[string]any, list []map[string]any) {
	own := map[string][]any{}
	var order []string
	for _, p := range list {
		n := p["name"].(string)
		if _, ok := own[n]; !ok {
			order = append(order, n)
		}
		own[n] = append(own[n], p)
	}
	for _, n := range order {
		packages[n] = own[n]
	}
}

// foundManagers are the managers the script found, in its order.
func foundManagers(out []byte) []string {
	var ms []string
	for _, l := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(l, "found="); ok {
			ms = append(ms, m)
		}
	}
	return ms
}

// aptPackages reads dpkg-query's listing (status, name, version,
// architecture, section; tab-separated) into Ansible's apt entries. A
// package of a foreign architecture is named name:arch, as python-apt
// names it. files and policy are apt-cache policy's output without and
// with the installed names, for each version's origin.
func aptPackages(listing, native, files, policy string) []map[string]any {
	origins := aptOrigins(files, policy)
	var out []map[string]any
	for _, l := range strings.Split(listing, "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 5 || len(f[0]) < 2 || f[0][1] == 'n' || f[0][1] == 'c' {
			continue
		}
		name := f[1]
		if f[3] != native && f[3] != "all" && native != "" {
			name += ":" + f[3]
		}
		out = append(out, map[string]any{"name": name, "version": f[2], "arch": f[3], "category": f[4],
			"origin": origins[name], "source": "apt"})
	}
	return out
}

var (
	aptPolicyPkg  = regexp.MustCompile(`^(\S+):$`)
	aptPolicyFile = regexp.MustCompile(`^ *-?[0-9]+ (.+)$`)
	aptOriginKey  = regexp.MustCompile(`(?:^|,)o=(.*?)(?:,[a-z]=|$)`)
)

// aptOrigins maps each installed package to the Origin of the first
// package file listed under its installed version ("***") in apt-cache
// policy's version table: files' "Package files:" part names each file's
// release fields (o= is the Origin).
func aptOrigins(files, policy string) map[string]string {
	origin := map[string]string{}
	last := ""
	for _, l := range strings.Split(files, "\n") {
		if m := aptPolicyFile.FindStringSubmatch(l); m != nil {
			last = m[1]
			continue
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "release ") && last != "" {
			if m := aptOriginKey.FindStringSubmatch(strings.TrimPrefix(t, "release ")); m != nil {
				origin[last] = m[1]
			}
		}
	}
	out := map[string]string{}
	pkg, inInstalled := "", false
	for _, l := range strings.Split(policy, "\n") {
		if m := aptPolicyPkg.FindStringSubmatch(l); m != nil {
			pkg, inInstalled = m[1], false
			continue
		}
		if strings.HasPrefix(l, " *** ") {
			inInstalled = true
			continue
		}
		if !inInstalled {
			continue
		}
		if strings.HasPrefix(l, "        ") {
			if m := aptPolicyFile.FindStringSubmatch(l); m != nil {
				out[pkg] = origin[m[1]]
			}
		}
		inInstalled = false
	}
	return out
}

// rpmPackages reads rpm -qa's listing (name, version, release, epoch,
// arch; tab-separated) into Ansible's rpm entries: a tag rpm prints as
// "(none)" is null, the epoch a number.
func rpmPackages(listing string) []map[string]any {
	var out []map[string]any
	none := func(s string) any {
		if s == "(none)" {
			return nil
		}
		return s
	}
	for _, l := range strings.Split(listing, "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 5 {
			continue
		}
		var epoch any
		if n, err := strconv.Atoi(f[3]); err == nil {
			epoch = n
		}
		out = append(out, map[string]any{"name": f[0], "version": none(f[1]), "release": none(f[2]),
			"epoch": epoch, "arch": none(f[4]), "source": "rpm"})
	}
	return out
}

// pkgFactsPyList renders names as Python's repr of a list of str.
func pkgFactsPyList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + strings.ReplaceAll(strings.ReplaceAll(n, `\`, `\\`), "'", `\'`) + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// pkgFactsIndex is the index of s in list, -1 when absent.
func pkgFactsIndex(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
