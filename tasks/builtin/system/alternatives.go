package system

import (
	"context"
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// alternativesModule manages a program's alternatives as
// community.general's alternatives module does, with Debian's
// update-alternatives (or RedHat's alternatives, by either name): it
// installs path as an alternative of name (with its link, priority and
// subcommands), selects it (state selected), returns the group to auto
// mode (auto) or removes it (absent), reading the group with --display.
// One round trip when nothing changes (and in check mode), two when it
// does: the second runs the commands.
type alternativesModule struct{}

var _ tasks.Module = (*alternativesModule)(nil)

var alternativesArgs = &tasks.Spec{
	Module: "alternatives",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "path", Kind: tasks.Path, Required: true},
		{Name: "link", Kind: tasks.Path},
		{Name: "priority", Kind: tasks.Int},
		{Name: "state", Default: "selected", Choices: []string{"present", "selected", "absent", "auto"}},
		{Name: "subcommands", Kind: tasks.List, Elements: tasks.Dict, Aliases: []string{"slaves"}},
	},
}

// alternativesScript probes the group ($round probe) or runs the
// planned commands ($round apply).
//
//go:embed alternatives.sh
var alternativesScript string

// altSubOptions are the options of each subcommand, all required.
var altSubOptions = []string{"link", "name", "path"}

// Run installs, selects or removes the alternative.
func (alternativesModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := alternativesArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	subs, hasSubs, err := altSubcommands(a)
	if err != nil {
		return tasks.Result{}, err
	}
	var words []string
	for _, s := range subs {
		words = append(words, shared.ShPath(s.Path), shared.ShPath(s.Link))
	}
	hasLink := a.Has("link")
	pairs := shared.ShAssign([][2]string{{"round", "probe"}, {"name", a.Str("name")}}) +
		"path=" + shared.ShPath(a.Str("path")) + "\nlink=" + shared.ShPath(a.Str("link")) + "\n"
	script := shared.SysFuncs + shared.BlobFuncs + pairs + shared.SetWords(words) + alternativesScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, blobs := shared.ParseBlobs(res.Stdout)
	if v["fail"] != "" {
		return shared.Fail(v["fail"]), nil
	}
	if res.ExitCode != 0 || v["probed"] == "" {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	for i := range subs {
		subs[i].Path, subs[i].Link = blobs[fmt.Sprintf("sub%d", 2*i)], blobs[fmt.Sprintf("sub%d", 2*i+1)]
	}
	j := altJob{
		ua: blobs["ua"], name: a.Str("name"), path: blobs["path"], link: blobs["link"], hasLink: hasLink && blobs["link"] != "",
		state: a.Str("state"), subs: subs, hasSubs: hasSubs, exists: v["exists"] != "", diff: env.Diff,
	}
	if a.Has("priority") {
		j.priority, j.hasPriority = a.Int("priority"), true
	}
	if v["rc"] == "0" {
		j.cur = parseAltDisplay(blobs["display"], subs, hasSubs)
	}
	plan, fail := j.plan()
	if fail != "" {
		return shared.Fail(fail), nil
	}
	data := map[string]any{"diff": map[string]any{"before": plan.before, "after": plan.after}, "msg": strings.Join(plan.msgs, " ")}
	r := tasks.Result{Changed: len(plan.cmds) > 0, Data: data}
	if env.Check || len(plan.cmds) == 0 {
		r.ShowDiff(env.Diff)
		return r, nil
	}
	var b strings.Builder
	for i, c := range plan.cmds {
		fmt.Fprintf(&b, "_al_run %d %s\n", i, strings.Join(quoteAll(c), " "))
	}
	script = shared.SysFuncs + shared.BlobFuncs + shared.ShAssign([][2]string{{"round", "apply"}}) + alternativesScript + b.String()
	res, err = shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, blobs = shared.ParseBlobs(res.Stdout)
	if v["fail"] == "rc" {
		rc, _ := strconv.Atoi(v["rc"])
		out, errOut := blobs["o"], blobs["e"]
		return tasks.Result{Failed: true, Msg: strings.TrimRight(errOut, " \t\n\r\f\v"), Data: map[string]any{
			"cmd": shared.PyCleanArgs(plan.cmds[shared.Atoi(v["step"])]), "rc": rc, "stdout": out, "stderr": errOut,
			"stdout_lines": shared.Lines(out), "stderr_lines": shared.Lines(errOut)}}, nil
	}
	if res.ExitCode != 0 {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	r.ShowDiff(env.Diff)
	return r, nil
}

// altSubcommands checks the subcommands option as the module's
// sub-specification does (dicts of name, path and link, all required)
// and converts it; the second value tells whether it was given.
func altSubcommands(a tasks.Values) ([]altSub, bool, error) {
	raw, ok := a["subcommands"]
	if !ok || raw == nil {
		return nil, false, nil
	}
	var subs []altSub
	unsupported := map[string]bool{}
	for _, e := range a.List("subcommands") {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, true, fmt.Errorf("value of 'subcommands' must be of type dict or list of dicts")
		}
		var missing []string
		for _, k := range altSubOptions {
			if val, ok := m[k]; !ok || val == nil {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			return nil, true, fmt.Errorf("missing required arguments: %s found in subcommands", strings.Join(missing, ", "))
		}
		for k := range m {
			if k != "name" && k != "path" && k != "link" {
				unsupported["subcommands."+k] = true
			}
		}
		subs = append(subs, altSub{Name: shared.PyToStr(m["name"]), Path: shared.PyToStr(m["path"]), Link: shared.PyToStr(m["link"])})
	}
	if len(unsupported) > 0 {
		names := make([]string, 0, len(unsupported))
		for k := range unsupported {
			names = append(names, k)
		}
		sort.Strings(names)
		return nil, true, &tasks.ArgError{Module: "alternatives", Unknown: names,
			Msg: fmt.Sprintf("Unsupported parameters for (alternatives) module: %s. Supported parameters include: link, name, path.",
				strings.Join(names, ", "))}
	}
	if subs == nil {
		subs = []altSub{}
	}
	return subs, true, nil
}

func (alternativesModule) Spec() *tasks.Spec { return alternativesArgs }
