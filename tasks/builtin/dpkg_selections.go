package builtin

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// dpkgSelectionsModule sets a package's dpkg selection (install, hold,
// deinstall, purge) as Ansible's dpkg_selections does: dpkg
// --get-selections reads it and, when it differs, dpkg --set-selections
// sets it, in one round trip. The name travels quoted; the selection line
// reaches dpkg on its standard input.
//
// One deliberate difference from ansible-core 2.14: a name dpkg knows
// nothing about fails with "Failed to find package ..." (as ansible-core
// does since 2.16), where 2.14 reported changed on every run while dpkg
// ignored the line.
type dpkgSelectionsModule struct{}

var _ tasks.Module = dpkgSelectionsModule{}

var dpkgSelectionsArgs = &tasks.Spec{
	Module: "dpkg_selections",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "selection", Required: true, Choices: []string{"install", "hold", "deinstall", "purge"}},
	},
}

// Spec returns dpkg_selections' parameters.
func (dpkgSelectionsModule) Spec() *tasks.Spec { return dpkgSelectionsArgs }

// debBinFuncs finds tools as Ansible's get_bin_path does (PATH, then the
// sbin directories that exist) and fails as it does when one is missing.
// _t_need NAME sets _t_b to NAME's path or prints fail= and exits.
//
//go:embed deb_bin_funcs.sh
var debBinFuncs string

// dpkgSelectionsScript reads $name's selection and sets $sel when it
// differs (unless $check). It prints dpkg=, then cur= (empty: not
// present), missing=1 for a name dpkg does not know, set=1 once set, or
// failed=get|set with the failing command's rc and its output (tailed).
//
//go:embed dpkg_selections.sh
var dpkgSelectionsScript string

// Run reads and, when it differs, sets the selection.
func (dpkgSelectionsModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := dpkgSelectionsArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, sel := a.Str("name"), a.Str("selection")
	script := "export LC_ALL=C\n" + sysFuncs + debBinFuncs + shAssign([][2]string{
		{"name", name}, {"sel", sel}, {"check", shFlag(env.Check)}}) + dpkgSelectionsScript
	res, err := run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := tailed(res.Stdout)
	switch {
	case v["fail"] != "":
		return fail(v["fail"]), nil
	case v["failed"] != "":
		cmd := q(v["dpkg"]) + " --get-selections " + q(name)
		if v["failed"] == "set" {
			cmd = q(v["dpkg"]) + " --set-selections"
		}
		rc := debAtoi(v["rc"], 1)
		d := map[string]any{"cmd": cmd, "rc": rc, "stdout": out, "stderr": errOut,
			"stdout_lines": lines(out), "stderr_lines": lines(errOut)}
		return tasks.Result{Failed: true, RC: rc, Msg: strings.TrimRight(errOut, " \t\r\n"), Data: d}, nil
	case v["missing"] == "1":
		return fail(fmt.Sprintf("Failed to find package '%s' to perform selection '%s'.", name, sel)), nil
	}
	cur, ok := v["cur"]
	if !ok {
		return fail(scriptError(res)), nil
	}
	if cur == "" {
		cur = "not present"
	}
	changed := cur != sel
	if changed && !env.Check && v["set"] != "1" {
		return fail(scriptError(res)), nil
	}
	return tasks.Result{Changed: changed, Data: map[string]any{"before": cur, "after": sel}}, nil
}

// debAtoi is s as a number, or def when it is not one.
func debAtoi(s string, def int) int {
	var n int
	if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d", &n); err != nil {
		return def
	}
	return n
}

// debBlobFuncs frame raw command output for the Debian package modules'
// scripts (apt_repository, apt_key, package_facts): _t_blob NAME FILE
// prints a "@@blob LEN NAME" line and the file's LEN bytes, which
// parseDebBlobs reads back exactly, whatever they hold.
//
//go:embed deb_blob_funcs.sh
var debBlobFuncs string

// debBlob is one blob a script printed with _t_blob.
type debBlob struct{ name, body string }

// parseDebBlobs splits a script's stdout into its key=value lines (all
// text outside the blobs) and the blobs, in the order printed.
func parseDebBlobs(out string) (verdict, []debBlob) {
	var head strings.Builder
	var blobs []debBlob
	const mark = "\n@@blob "
	for {
		i := strings.Index(out, mark)
		if i < 0 {
			head.WriteString(out)
			break
		}
		head.WriteString(out[:i+1])
		rest := out[i+len(mark):]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			break
		}
		n, name, _ := strings.Cut(rest[:nl], " ")
		size := debAtoi(n, -1)
		body := rest[nl+1:]
		if size < 0 || size > len(body) {
			break
		}
		blobs = append(blobs, debBlob{name, body[:size]})
		out = body[size:]
	}
	return parseVerdict([]byte(head.String())), blobs
}
