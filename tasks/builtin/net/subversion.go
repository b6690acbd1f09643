package net

import (
	"context"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// subversionModule checks out, updates, switches and exports a
// Subversion repository on the host with the host's svn, as ansible-core
// 2.14's subversion module does (subversionScript says where tender's
// differs). One round trip. The password reaches svn on its standard
// input, never its command line, and is hidden in what the task returns,
// as Ansible hides a no_log parameter.
type subversionModule struct{}

var _ tasks.Module = subversionModule{}

var subversionArgs = &tasks.Spec{
	Module: "subversion",
	Params: []tasks.Param{
		{Name: "repo", Required: true, Aliases: []string{"name", "repository"}},
		{Name: "dest", Kind: tasks.Path},
		{Name: "revision", Default: "HEAD", Aliases: []string{"rev", "version"}},
		{Name: "force", Kind: tasks.Bool, Default: false},
		{Name: "in_place", Kind: tasks.Bool, Default: false},
		{Name: "username"},
		{Name: "password"},
		{Name: "executable", Kind: tasks.Path},
		{Name: "checkout", Kind: tasks.Bool, Default: true},
		{Name: "update", Kind: tasks.Bool, Default: true},
		{Name: "export", Kind: tasks.Bool, Default: false},
		{Name: "switch", Kind: tasks.Bool, Default: true},
		{Name: "validate_certs", Kind: tasks.Bool, Default: false},
	},
}

// Spec returns subversion's parameters.
func (subversionModule) Spec() *tasks.Spec { return subversionArgs }

// Run brings dest to the repository's revision.
func (subversionModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := subversionArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	vars := shared.ShAssign([][2]string{
		{"repo", a.Str("repo")}, {"rev", a.Str("revision")}, {"force", shared.BoolFlag(a.Bool("force"))},
		{"username", a.Str("username")},
		{"export", shared.BoolFlag(a.Bool("export"))}, {"checkout", shared.BoolFlag(a.Bool("checkout"))},
		{"update", shared.BoolFlag(a.Bool("update"))}, {"switch", shared.BoolFlag(a.Bool("switch"))},
		{"in_place", shared.BoolFlag(a.Bool("in_place"))}, {"trust", shared.BoolFlag(!a.Bool("validate_certs"))},
		{"check", shared.BoolFlag(env.Check)},
	})
	for _, p := range [][2]string{{"dest", "dest"}, {"svnexe", "executable"}} {
		vars += p[0] + "="
		if s := a.Str(p[1]); s != "" {
			vars += shared.ShPath(s)
		}
		vars += "\n"
	}
	mask := vcsMask{noLog: true}
	if p := a.Str("password"); p != "" {
		mask.secrets = []string{p}
	}
	// the password travels in the environment, which a task run in the
	// background keeps out of the files it writes
	out, err := shared.RunWith(ctx, env, shared.BlobFuncs+shared.DebBinFuncs+vcsFuncs+vars+subversionScript,
		map[string]string{"TENDER_SVN_PASSWORD": a.Str("password")}, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, b := shared.ParseBlobs(out.Stdout)
	if r, failed := vcsFailure(v, b, mask); failed {
		return shared.WithWarnings(mask.result(r)), nil
	}
	if v["done"] != "1" {
		return shared.Fail(shared.ScriptError(out)), nil
	}
	d := map[string]any{"changed": v["changed"] == "1"}
	for _, k := range []string{"before", "after"} {
		switch enc := b[k]; {
		case enc == "n":
			d[k] = nil
		case strings.HasPrefix(enc, "s="):
			d[k] = enc[2:]
		case strings.HasPrefix(enc, "l="):
			rev, u, _ := strings.Cut(enc[2:], "\n")
			d[k] = []any{rev, u}
		}
	}
	return mask.result(tasks.Result{Changed: d["changed"] == true, Data: d}), nil
}
