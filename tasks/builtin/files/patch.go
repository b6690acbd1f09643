package files

import (
	"context"
	_ "embed"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// patchModule applies or reverts a patch with GNU patch, as ansible.posix's
// patch action and module (1.5.4) do: a dry run (reversed for
// state=present) says whether the patch is already in place, and only
// when it is not does patch run (with --dry-run in check mode). A
// controller patch (remote_src false, found as Ansible finds files)
// travels on the script's stdin into a private directory on the host.
// One round trip.
type patchModule struct{}

var _ tasks.Module = (*patchModule)(nil)

var patchArgs = &tasks.Spec{
	Module: "patch",
	Params: []tasks.Param{
		{Name: "src", Kind: tasks.Path, Required: true, Aliases: []string{"patchfile"}},
		{Name: "dest", Kind: tasks.Path, Aliases: []string{"originalfile"}},
		{Name: "basedir", Kind: tasks.Path},
		{Name: "strip", Kind: tasks.Int, Default: 0},
		{Name: "remote_src", Kind: tasks.Bool, Default: false},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "binary", Kind: tasks.Bool, Default: false},
		{Name: "ignore_whitespace", Kind: tasks.Bool, Default: false},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
	},
	RequiredOneOf: [][]string{{"dest", "basedir"}},
}

// patchScript checks src, dest and basedir as the module does and runs
// the dry run and the patch (_p_test, _p_apply, which Go defines); it
// prints fail=, nobin=1, crash=1 or changed=, failed=1 with patch's rc and
// output, and done=1.
//
//go:embed patch.sh
var patchScript string

// patchWords are the words of the module's two patch command lines
// after the program (path values stand for the host's expanded ones):
// the dry run that tells whether the patch is in place (test) and the
// run that applies it (apply), with --dry-run in check mode.
func patchWords(a tasks.Values, check bool) (test, apply []string) {
	common := []string{"--strip=" + strconv.Itoa(a.Int("strip")), "--directory=$basedir", "--input=$src"}
	var tail []string
	if a.Bool("binary") {
		tail = append(tail, "--binary")
	}
	if a.Bool("ignore_whitespace") {
		tail = append(tail, "--ignore-whitespace")
	}
	if a.Str("dest") != "" {
		tail = append(tail, "$dest")
	}
	test = append(append(append([]string{"--quiet", "--forward"}, common...), "--dry-run"), tail...)
	if a.Str("state") == "present" {
		test = append(test, "--reverse")
	}
	apply = append([]string{"--quiet", "--forward", "--batch", "--reject-file=-"}, common...)
	if check {
		apply = append(apply, "--dry-run")
	}
	apply = append(apply, tail...)
	if a.Bool("backup") {
		apply = append(apply, "--backup", "--version-control=numbered")
	}
	if a.Str("state") == "absent" {
		apply = append(apply, "--reverse")
	}
	return test, apply
}

// shWords renders words as shell words: the path values ($basedir,
// $src, $dest, alone or after an option's =) as the script's variables,
// every other word quoted.
func shWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		opt, v, _ := strings.Cut(w, "=")
		switch {
		case w == "$dest":
			out[i] = `"$dest"`
		case v == "$basedir" || v == "$src":
			out[i] = shared.Q(opt+"=") + `"` + v + `"`
		default:
			out[i] = shared.Q(w)
		}
	}
	return strings.Join(out, " ")
}

// lenientBool is Ansible's boolean(v, strict=False), with which the
// patch action reads remote_src: only a true value or word is true.
func lenientBool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int:
		return x == 1
	case int64:
		return x == 1
	case float64:
		return x == 1
	case string:
		return boolean.True(x)
	}
	return false
}

// Run applies (or reverts) the patch: the action's checks on the
// controller (src given, found), the module's arguments, then one
// script.
func (patchModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	if args["src"] == nil {
		return shared.Fail("src is required"), nil
	}
	var body []byte
	var name string
	remote := lenientBool(args["remote_src"])
	if !remote {
		local, err := env.FindFile("files", shared.PyToStr(args["src"]))
		if err != nil {
			return shared.Fail(err.Error()), nil
		}
		if err := env.Sandbox.CheckRead(local); err != nil {
			return tasks.Result{}, err
		}
		if body, err = env.Sandbox.ReadFile(local); err != nil {
			return shared.Fail("Could not find or access '" + shared.PyToStr(args["src"]) + "' on the Ansible Controller: " + err.Error()), nil
		}
		name = filepath.Base(local)
	}
	a, err := patchArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	test, apply := patchWords(a, env.Check)
	src := shared.ShPath(a.Str("src"))
	quoted := strings.ContainsRune(a.Str("dest"), '\'') || strings.ContainsRune(a.Str("basedir"), '\'')
	if !remote {
		src = shared.Q(name)
		quoted = quoted || strings.ContainsRune(name, '\'')
	} else {
		quoted = quoted || strings.ContainsRune(a.Str("src"), '\'')
	}
	script := shared.SysFuncs + "src=" + src + "\ndest=" + shared.ShPath(a.Str("dest")) + "\nbasedir=" + shared.ShPath(a.Str("basedir")) + "\n" +
		shared.ShAssign([][2]string{{"sent", shared.BoolFlag(!remote)}, {"quoted", shared.BoolFlag(quoted)},
			{"has_dest", shared.BoolFlag(a.Str("dest") != "")}, {"has_basedir", shared.BoolFlag(a.Str("basedir") != "")}}) +
		"_p_test() { _p_run \"$1\" " + shWords(test) + "; [ \"$rc\" -eq 0 ]; }\n" +
		"_p_apply() { _p_run \"$1\" " + shWords(apply) + "; [ \"$rc\" -eq 0 ]; }\n" + patchScript
	var stdin *strings.Reader
	if !remote {
		stdin = strings.NewReader(string(body))
	}
	res, err := shared.Run(ctx, env, script, shared.NilReader(stdin))
	if err != nil {
		return tasks.Result{}, err
	}
	return patchResult(res.Stdout, shared.ScriptError(res)), nil
}

// patchResult is the task's result for the script's output: the
// module's failure messages, patch's own output (its stderr, else its
// stdout) when it failed, or whether it changed the files.
func patchResult(stdout []byte, scriptErr string) tasks.Result {
	v, out, errOut := shared.Tailed(stdout)
	switch {
	case v["fail"] != "":
		return shared.Fail(v["fail"])
	case v["nobin"] == "1":
		return shared.Fail("patch command not found")
	case v["crash"] == "1":
		return pyCrash("patch", "main", "ValueError: No closing quotation")
	case v["failed"] == "1":
		if errOut == "" {
			errOut = out
		}
		return shared.Fail(errOut)
	case v["done"] != "1":
		return shared.Fail(scriptErr)
	}
	return tasks.Result{Changed: v["changed"] == "1", Data: map[string]any{}}
}

// Spec returns patch's arguments.
func (patchModule) Spec() *tasks.Spec { return patchArgs }
