package packages

import (
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// rpmListResult is list's result as Ansible's dnf returns it: for each
// package its name, arch, epoch, version, release, repo, envra (and nevra,
// the same), and yumstate (installed or available); for list=repos each
// enabled repository's id with state enabled.
func rpmListResult(head []string) tasks.Result {
	results := []any{}
	var warnings []string
	for _, l := range head {
		k, val, _ := strings.Cut(l, "=")
		switch k {
		case "warning":
			warnings = append(warnings, val)
		case "repo":
			results = append(results, map[string]any{"repoid": val, "state": "enabled"})
		case "pkg":
			f := strings.SplitN(val, "|", 7)
			if len(f) < 7 {
				continue
			}
			p := map[string]any{"name": f[0], "arch": f[1], "epoch": f[2], "version": f[3], "release": f[4], "repo": f[5]}
			envra := f[2] + ":" + f[0] + "-" + f[3] + "-" + f[4] + "." + f[1]
			p["envra"], p["nevra"] = envra, envra
			p["yumstate"] = "available"
			if f[6] != "" {
				p["yumstate"] = "installed"
			}
			results = append(results, p)
		}
	}
	return tasks.Result{Warnings: warnings, Data: map[string]any{"msg": "", "results": results}}
}
