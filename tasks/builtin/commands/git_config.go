package commands

import (
	"context"
	_ "embed"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"unicode"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// gitConfigModule reads and writes git configuration with the host's git
// program, as community.general 6.6.2's git_config does: a setting of the
// system, global (the $HOME of the user the task runs as: become's, since
// sudo -H sets it), local (repo's) or file scope is read, then written
// (git config NAME VALUE) or removed (--unset) when it differs; list_all
// lists every setting of a scope (or of all of them) as config_values.
// git runs in the C locale, from / (from repo for local settings and for
// list_all with repo), with --includes. One round trip.
type gitConfigModule struct{}

var _ tasks.Module = gitConfigModule{}

var gitConfigArgs = &tasks.Spec{
	Module: "git_config",
	Params: []tasks.Param{
		{Name: "list_all", Kind: tasks.Bool, Default: false},
		{Name: "name"},
		{Name: "repo", Kind: tasks.Path},
		{Name: "file", Kind: tasks.Path},
		{Name: "scope", Choices: []string{"file", "local", "global", "system"}},
		{Name: "state", Default: "present", Choices: []string{"present", "absent"}},
		{Name: "value"},
	},
	MutuallyExclusive: [][]string{{"list_all", "name"}, {"list_all", "value"}, {"list_all", "state"}},
	RequiredOneOf:     [][]string{{"list_all", "name"}},
}

// gitConfigScript reads the setting and writes it when asked and needed
// (see its header).
//
//go:embed git_config.sh
var gitConfigScript string

// Spec returns git_config's parameters.
func (gitConfigModule) Spec() *tasks.Spec { return gitConfigArgs }

// gitConfigPlan is what a git_config task asks, decoded: the words of the
// git config command after "config" (as Ansible builds its argv), the
// setting's name, the new value ("" for none), whether it unsets, and the
// directory git runs in.
type gitConfigPlan struct {
	listAll, unset, useFile bool
	scope, name, value      string
	file, dir               string // as given (path parameters), expanded on the host
}

// planGitConfig decodes args into a plan, with Ansible's required_if
// rules: scope=local needs repo, scope=file needs file.
func planGitConfig(args tasks.Args) (gitConfigPlan, error) {
	a, err := gitConfigArgs.Decode(args)
	if err != nil {
		return gitConfigPlan{}, err
	}
	p := gitConfigPlan{listAll: a.Bool("list_all"), name: a.Str("name"), scope: a.Str("scope")}
	switch {
	case p.scope == "local" && !a.Has("repo"):
		return p, errors.New("scope is local but all of the following are missing: repo")
	case p.scope == "file" && !a.Has("file"):
		return p, errors.New("scope is file but all of the following are missing: file")
	}
	if p.scope == "" && !p.listAll {
		p.scope = "system"
	}
	if a.Str("state") == "absent" {
		p.unset = true
	} else {
		p.value = a.Str("value")
	}
	p.useFile, p.file = p.scope == "file", a.Str("file")
	p.dir = "/"
	if p.scope == "local" || (p.listAll && a.Has("repo")) {
		p.dir = a.Str("repo")
	}
	return p, nil
}

// options are the words of the command after "git config", but the name:
// the file word is the expanded path the host reported.
func (p gitConfigPlan) options(file string) []string {
	w := []string{"--includes"}
	if p.listAll {
		w = append(w, "-l")
	}
	switch {
	case p.useFile:
		w = append(w, "-f", file)
	case p.scope != "":
		w = append(w, "--"+p.scope)
	}
	return w
}

// act is what the script may write: "set", "unset" or "" (a read).
func (p gitConfigPlan) act() string {
	switch {
	case p.listAll:
		return ""
	case p.unset:
		return "unset"
	case p.value != "":
		return "set"
	}
	return ""
}

// script is the task's script: the options as positional parameters, the
// file and directory expanded on the host as path parameters are.
func (p gitConfigPlan) script(check bool) string {
	words := []string{}
	for _, w := range p.options("\x00") {
		if w == "\x00" {
			words = append(words, shared.ShPath(p.file))
			continue
		}
		words = append(words, shared.Q(w))
	}
	dir := shared.Q(p.dir)
	if p.dir != "/" {
		dir = shared.ShPath(p.dir)
	}
	return shared.SysFuncs + shared.ShAssign([][2]string{
		{"name", p.name}, {"new", p.value}, {"act", p.act()},
		{"check", shared.BoolFlag(check)}, {"usefile", shared.BoolFlag(p.useFile)},
	}) + "file=" + shared.ShPath(p.file) + "\ndir=" + dir + "\n" + shared.SetWords(words) + gitConfigScript
}

// Run reads, and when asked and needed writes, the setting.
func (gitConfigModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	p, err := planGitConfig(args)
	if err != nil {
		return tasks.Result{}, err
	}
	res, err := shared.Run(ctx, env, p.script(env.Check), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	if v["nogit"] == "" && v["rc"] == "" {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	r := p.result(v, out, errOut, env.Check)
	r.ShowDiff(env.Diff)
	return r, nil
}

// unhex decodes a hex value the script printed.
func unhex(s string) string {
	b, _ := hex.DecodeString(s)
	return string(b)
}

// pyRstrip is Python's str.rstrip(): trailing white space removed.
func pyRstrip(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }

// result makes the task's result from the script's verdict v and the
// read's stdout and the read's (or the failed write's) stderr, as the
// module decides: a failed read (rc >= 2; a missing file of a scope when
// listing is no settings), the list, the value read, nothing to unset, a
// value already set, or the change made (or that check mode would make).
func (p gitConfigPlan) result(v shared.Verdict, out, errOut string, check bool) tasks.Result {
	if v["nogit"] != "" {
		return shared.Fail(`Failed to find required executable "git" in paths: ` + unhex(v["nogit"]))
	}
	git := unhex(v["git"])
	args := append([]string{git, "config"}, p.options(unhex(v["file"]))...)
	if p.name != "" {
		args = append(args, p.name)
	}
	rc, _ := strconv.Atoi(v["rc"])
	ok := func(data map[string]any) tasks.Result {
		data["msg"] = ""
		return tasks.Result{Msg: "", Data: data}
	}
	switch {
	case p.listAll && p.scope != "" && rc == 128 && strings.Contains(errOut, "unable to read config file"):
		return ok(map[string]any{"config_values": map[string]any{}})
	case rc >= 2:
		return tasks.Result{Failed: true, Msg: errOut, Data: map[string]any{"rc": rc, "cmd": strings.Join(args, " "), "msg": errOut}}
	case p.listAll:
		values, err := parseGitConfigList(out)
		if err != nil {
			return shared.Fail(err.Error())
		}
		return ok(map[string]any{"config_values": values})
	case p.act() == "":
		return ok(map[string]any{"config_value": pyRstrip(out)})
	case v["state"] == "nothing":
		return tasks.Result{Msg: "no setting to unset", Data: map[string]any{"msg": "no setting to unset"}}
	case v["state"] == "same":
		return ok(map[string]any{})
	}
	if !check {
		if p.unset {
			args = append(args[:len(args)-1:len(args)-1], "--unset", p.name)
		}
		switch v["wfail"] {
		case "cwd":
			return shared.Fail("Provided cwd is not a valid directory: " + pyfmt.BytesRepr(unhex(v["baddir"])))
		case "1":
			cmd := []any{}
			for _, w := range args {
				cmd = append(cmd, w)
			}
			if !p.unset {
				cmd = append(cmd, p.value)
			}
			wrc, _ := strconv.Atoi(v["wrc"])
			return tasks.Result{Failed: true, Msg: errOut, Data: map[string]any{"rc": wrc, "cmd": cmd, "msg": errOut}}
		}
	}
	header := strings.Join(args, " ")
	return tasks.Result{Changed: true, Msg: "setting changed", Data: map[string]any{
		"msg": "setting changed",
		"diff": map[string]any{
			"before_header": header, "before": pyRstrip(out) + "\n",
			"after_header": header, "after": p.value + "\n",
		},
	}}
}

// parseGitConfigList reads git config -l's lines (NAME=VALUE) into a
// mapping, the last of a name's values winning. A line without = (a
// multi-line value, a key without one) stops the real module with
// Python's error, as here.
func parseGitConfigList(out string) (map[string]any, error) {
	values := map[string]any{}
	for _, l := range shared.Lines(pyRstrip(out)) {
		k, val, found := strings.Cut(l.(string), "=")
		if !found {
			return nil, errors.New("not enough values to unpack (expected 2, got 1)")
		}
		values[k] = val
	}
	return values, nil
}
