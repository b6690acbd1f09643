package packages

import (
	"sort"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// rpmResult shapes the script's verdict as Ansible's dnf reports it:
// "Installed <path>" for each local rpm, the packages update_only left
// alone, then the transaction's "Installed: NEVRA" ("Downloaded: NEVRA"
// with download_only) and "Removed: NEVRA", each set sorted; the
// script's warnings.
func rpmResult(v shared.Verdict, head []string, output string) tasks.Result {
	res := rpmBuild(v, head, output)
	for _, l := range head {
		if w, ok := strings.CutPrefix(l, "warning="); ok {
			res.Warnings = append(res.Warnings, w)
		}
	}
	return res
}

func rpmBuild(v shared.Verdict, head []string, output string) tasks.Result {
	action := "Installed: "
	if v["dl"] == "1" {
		action = "Downloaded: "
	}
	files, installed, removed, failures := []any{}, []string{}, []string{}, []any{}
	for _, l := range head {
		k, val, _ := strings.Cut(l, "=")
		switch k {
		case "file":
			files = append(files, "Installed "+val)
		case "notinst":
			files = append(files, "Packages providing "+val+" not installed due to update_only specified")
		case "installed":
			installed = append(installed, action+val)
		case "removed":
			removed = append(removed, "Removed: "+val)
		case "failure":
			failures = append(failures, val)
		}
	}
	sort.Strings(installed)
	sort.Strings(removed)
	results := append([]any{}, files...)
	for _, r := range append(installed, removed...) {
		results = append(results, r)
	}
	switch v["verdict"] {
	case "failed":
		return shared.Fail(v["msg"])
	case "cache":
		return tasks.Result{Msg: "Cache updated", Data: map[string]any{"results": []any{}, "rc": 0}}
	case "failures":
		return tasks.Result{Failed: true, Msg: "Failed to install some of the specified packages", RC: 1,
			Data: map[string]any{"failures": failures, "results": []any{}, "rc": 1}}
	case "nothing":
		return tasks.Result{Msg: "Nothing to do", Data: map[string]any{"results": files, "rc": 0}}
	case "check":
		return tasks.Result{Changed: true, Msg: "Check mode: No changes made, but would have if not in check mode",
			Data: map[string]any{"results": results, "rc": 0}}
	case "ran":
	default:
		return tasks.Result{Failed: true, Msg: "the module script printed no verdict"}
	}
	if v["rc"] != "0" {
		return rpmFailure(output)
	}
	// download_only is changed when something was downloaded (Ansible's
	// always is).
	changed := v["dl"] != "1" || v["dlchanged"] == "1"
	return tasks.Result{Changed: changed, Data: map[string]any{"msg": "", "results": results, "rc": 0}}
}

// rpmFailure is a failed dnf call's result: a dependency problem as
// Ansible's dnf reports a DepsolveError ("Depsolve Error occurred: " and
// dnf's problem), else dnf's output as the failure.
func rpmFailure(output string) tasks.Result {
	if i := strings.Index(output, "Error: \n Problem"); i >= 0 {
		problem := output[i+len("Error: "):]
		if j := strings.Index(problem, "\n(try to add"); j >= 0 {
			problem = problem[:j]
		}
		msg := "Depsolve Error occurred: " + strings.TrimRight(problem, "\n")
		return tasks.Result{Failed: true, Msg: msg, RC: 1, Data: map[string]any{"failures": []any{}, "results": []any{}, "rc": 1}}
	}
	return tasks.Result{Failed: true, Msg: "Failed to install some of the specified packages", RC: 1,
		Data: map[string]any{"failures": []any{strings.TrimSpace(output)}, "results": []any{}, "rc": 1}}
}
