package packages

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// npmModule is community.general's npm: it installs, updates or removes
// a Node.js package (or a project's dependencies) with the host's npm,
// in a project directory or globally. It reads `npm list --json --long`
// (and for state latest `npm outdated`) in one round trip, then runs
// npm install, update, uninstall or ci in another when something is to
// change, with the module's options turned into npm's flags as the
// module turns them.
type npmModule struct{}

var _ tasks.Module = npmModule{}

var npmArgs = &tasks.Spec{
	Module: "npm",
	Params: []tasks.Param{
		{Name: "name"},
		{Name: "path", Kind: tasks.Path},
		{Name: "version"},
		{Name: "production", Kind: tasks.Bool, Default: false},
		{Name: "executable", Kind: tasks.Path},
		{Name: "registry"},
		{Name: "state", Default: "present", Choices: []string{"present", "absent", "latest"}},
		{Name: "ignore_scripts", Kind: tasks.Bool, Default: false},
		{Name: "unsafe_perm", Kind: tasks.Bool, Default: false},
		{Name: "ci", Kind: tasks.Bool, Default: false},
		{Name: "no_optional", Kind: tasks.Bool, Default: false},
		{Name: "no_bin_links", Kind: tasks.Bool, Default: false},
		{Name: "global", Kind: tasks.Bool, Default: false},
	},
}

// Spec returns npm's parameters.
func (npmModule) Spec() *tasks.Spec { return npmArgs }

//go:embed npm.sh
var npmFuncs string

// npmJob is one task: its arguments and the command lines they make.
type npmJob struct {
	a           tasks.Values
	check       bool
	name        string
	nameVersion string
	exe         []string // the executable's words, when given
}

// Run reads what is installed, then installs, updates or removes.
func (npmModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := npmArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if a.Str("path") == "" && !a.Bool("global") {
		return shared.Fail("path must be specified when not using global"), nil
	}
	if a.Str("state") == "absent" && a.Str("name") == "" {
		return shared.Fail("uninstalling a package is only available for named packages"), nil
	}
	j := &npmJob{a: a, check: env.Check, name: a.Str("name")}
	j.nameVersion = j.name
	if v := a.Str("version"); v != "" && a.Str("state") != "absent" {
		j.nameVersion = j.name + "@" + v
	}
	if e := a.Str("executable"); e != "" {
		j.exe = strings.Split(e, " ")
	}
	var reads []string
	switch {
	case a.Bool("ci"):
	case a.Str("state") == "latest":
		reads = []string{"list", "outdated"}
	default:
		reads = []string{"list"}
	}
	out, err := shared.Run(ctx, env, j.script(reads, false), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	h, r, done := j.parse(reads, out)
	if done {
		return r, nil
	}
	acts, r, done := j.decide(h)
	if done || len(acts) == 0 || j.check {
		return r, nil
	}
	out, err = shared.Run(ctx, env, j.script(acts, true), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	if _, r, done := j.parse(acts, out); done {
		return r, nil
	}
	return tasks.Result{Changed: true, Data: map[string]any{}}, nil
}

// argv is the command line of the npm command verb, as the module's
// _exec builds it.
func (j *npmJob) argv(verb string) []string {
	a := j.a
	cmd := slices.Clone(j.exe)
	if cmd == nil {
		cmd = []string{"npm"}
	}
	if verb == "list" {
		cmd = append(cmd, "list", "--json", "--long")
	} else {
		cmd = append(cmd, verb)
	}
	if a.Bool("global") {
		cmd = append(cmd, "--global")
	}
	if a.Bool("production") && (slices.Contains(cmd, "install") || slices.Contains(cmd, "update") || slices.Contains(cmd, "ci")) {
		cmd = append(cmd, "--production")
	}
	if a.Bool("ignore_scripts") {
		cmd = append(cmd, "--ignore-scripts")
	}
	if a.Bool("unsafe_perm") {
		cmd = append(cmd, "--unsafe-perm")
	}
	if j.nameVersion != "" && verb != "list" {
		cmd = append(cmd, j.nameVersion)
	}
	if r := a.Str("registry"); r != "" {
		cmd = append(cmd, "--registry", r)
	}
	if a.Bool("no_optional") {
		cmd = append(cmd, "--no-optional")
	}
	if a.Bool("no_bin_links") {
		cmd = append(cmd, "--no-bin-links")
	}
	return cmd
}

// script runs the commands of verbs in the project directory, stopping
// at the first that fails when they change something (act).
func (j *npmJob) script(verbs []string, act bool) string {
	var b strings.Builder
	b.WriteString(shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + npmFuncs)
	exe := "\"$_t_b\""
	if j.exe == nil {
		b.WriteString("_t_need npm\nprintf '\\nnpm=%s\\n' \"$_t_b\"\n")
	} else {
		fmt.Fprintf(&b, "_n_exe %s\n", shared.Q(j.exe[0]))
		exe = shared.Q(j.exe[0])
	}
	if p := j.a.Str("path"); p != "" {
		mk := "1"
		if j.check {
			mk = "0"
		}
		// a directory check mode does not make holds nothing: npm
		// lists nothing there
		fmt.Fprintf(&b, "_n_path %s %s\n[ -z \"$_n_nodir\" ] || { echo; echo done=1; exit 0; }\n", shared.ShPath(p), mk)
	}
	ck := "any"
	if act {
		ck = "0"
	}
	for _, v := range verbs {
		argv := j.argv(v)
		fmt.Fprintf(&b, "_t_x %s %s %s", v, ck, exe)
		for _, w := range argv[1:] {
			b.WriteString(" " + shared.Q(w))
		}
		b.WriteString("\n")
	}
	b.WriteString("echo; echo done=1\n")
	return b.String()
}

// parse reads a script's output, and ends the task where the host
// said so: npm missing or not runnable, the path refused, a command
// that failed.
func (j *npmJob) parse(verbs []string, out transport.Result) (shared.Blobs, tasks.Result, bool) {
	h := shared.ParseBlobMap(out.Stdout)
	v := h.V
	switch {
	case v["fail"] != "":
		return h, shared.Fail(v["fail"]), true
	case v["msgfail"] != "":
		return h, shared.Fail(v["msgfail"]), true
	case v["noexec"] != "":
		msg := map[string]string{"2": "No such file or directory", "13": "Permission denied"}[v["noexec"]]
		argv := j.argv(verbs[0])
		return h, tasks.Result{Failed: true, Msg: fmt.Sprintf("[Errno %s] %s: b'%s'", v["noexec"], msg, argv[0]),
			Data: map[string]any{"cmd": shared.PyCleanArgs(argv), "rc": 2, "stdout": "", "stderr": "",
				"stdout_lines": []any{}, "stderr_lines": []any{}}}, true
	case v["failed"] != "":
		id := v["failed"]
		argv := j.argv(id)
		if j.exe == nil {
			argv[0] = v["npm"]
		}
		stderr := h.Blobs["err."+id]
		return h, tasks.Result{Failed: true, Msg: shared.PySanitize(strings.TrimRight(stderr, " \t\n\r\f\v")),
			Data: map[string]any{"cmd": shared.PyCleanArgs(argv), "rc": shared.DebAtoi(v["rc."+id], 1),
				"stdout": h.Blobs["out."+id], "stderr": stderr,
				"stdout_lines": shared.Lines(h.Blobs["out."+id]), "stderr_lines": shared.Lines(stderr)}}, true
	case v["done"] != "1":
		return h, shared.Fail(shared.ScriptError(out)), true
	}
	return h, tasks.Result{}, false
}

// npmOutdatedSplit is the module's split of an outdated line: at the
// first blank or @.
var npmOutdatedSplit = regexp.MustCompile(`\s|@`)

// decide is the module's choice from what npm listed: the commands to
// run, or the result when there are none (or in check mode).
func (j *npmJob) decide(h shared.Blobs) ([]string, tasks.Result, bool) {
	a := j.a
	unchanged := tasks.Result{Data: map[string]any{}}
	changed := tasks.Result{Changed: true, Data: map[string]any{}}
	if a.Bool("ci") {
		return []string{"ci"}, changed, false
	}
	installed, missing, err := j.list(h.Blobs["out.list"])
	if err != nil {
		return nil, shared.Fail("Failed to parse NPM output with error " + err.Error()), true
	}
	var acts []string
	switch a.Str("state") {
	case "present":
		if missing {
			acts = append(acts, "install")
		}
	case "latest":
		if missing {
			acts = append(acts, "install")
		}
		for _, line := range strings.Split(h.Blobs["out.outdated"], "\n") {
			if line = strings.TrimRight(line, "\r"); line != "" && npmOutdatedSplit.MatchString(line) {
				acts = append(acts, "update")
				break
			}
		}
	case "absent":
		if slices.Contains(installed, j.name) {
			acts = append(acts, "uninstall")
		}
	}
	if len(acts) == 0 {
		return nil, unchanged, true
	}
	return acts, changed, false
}

// list reads `npm list --json --long` as the module does: the packages
// installed (each also as name@version), and whether the task's
// package (or any dependency) is missing.
func (j *npmJob) list(out string) ([]string, bool, error) {
	if strings.TrimSpace(out) == "" {
		out = "{}"
	}
	var data map[string]any
	if err := json.Unmarshal([]byte(out), &data); err != nil {
		return nil, false, err
	}
	deps, ok := data["dependencies"].(map[string]any)
	if !ok {
		return nil, true, nil
	}
	var installed []string
	missing := false
	for dep, p := range deps {
		props, _ := p.(map[string]any)
		if shared.Truthy(props["missing"]) || shared.Truthy(props["invalid"]) {
			missing = true
			continue
		}
		installed = append(installed, dep)
		if v, ok := props["version"]; ok && shared.Truthy(v) {
			installed = append(installed, dep+"@"+expr.Str(v))
		}
	}
	if j.nameVersion != "" && !slices.Contains(installed, j.nameVersion) {
		missing = true
	}
	return installed, missing, nil
}
