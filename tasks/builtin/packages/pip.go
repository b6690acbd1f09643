package packages

import (
	"context"
	_ "embed"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// pipModule manages Python packages with pip, as Ansible's pip, in one
// round trip: it creates the virtualenv when missing and runs pip. As in
// Ansible, an install is changed when pip says "Successfully installed",
// a removal when it says "Successfully uninstalled", and a requirements
// file's install when pip's list of packages differs before and after;
// check mode compares that list with the names asked for.
type pipModule struct{}

var _ tasks.Module = pipModule{}

var pipArgs = &tasks.Spec{
	Module: "pip",
	Params: []tasks.Param{
		{Name: "name", Kind: tasks.List},
		{Name: "version"},
		{Name: "requirements"},
		{Name: "virtualenv", Kind: tasks.Path},
		{Name: "virtualenv_site_packages", Kind: tasks.Bool, Default: false},
		{Name: "virtualenv_command", Kind: tasks.Path, Default: "virtualenv"},
		{Name: "virtualenv_python"},
		{Name: "state", Default: "present", Choices: []string{"absent", "forcereinstall", "latest", "present"}},
		{Name: "extra_args"},
		{Name: "editable", Kind: tasks.Bool, Default: false},
		{Name: "chdir", Kind: tasks.Path},
		{Name: "executable", Kind: tasks.Path},
		{Name: "umask"},
	},
	MutuallyExclusive: [][]string{{"name", "requirements"}, {"executable", "virtualenv"}},
	RequiredOneOf:     [][]string{{"name", "requirements"}},
}

var pipVerbs = map[string][]string{
	"present": {"install"}, "absent": {"uninstall", "-y"}, "latest": {"install", "-U"},
	"forcereinstall": {"install", "-U", "--force-reinstall"},
}

var pipVCS = regexp.MustCompile(`^(svn|git|hg|bzr)\+`)

// pipScript runs pip. Inputs: venv, venvcmd (words, one per line), venvpy
// (non-empty: add -p with the host's python, as Ansible does for
// virtualenv), venvpyerr (non-empty: making the virtualenv fails), chdir,
// exe, verb and args (pip's words, one per line), absent, listed
// (non-empty: list the packages before and after), checkall (non-empty:
// check mode cannot tell, so changed), umask, _t_check. Without exe or
// venv, pip is python3's pip module when python3 has one (Ansible runs its
// interpreter's), else pip3. It prints pip= (the words joined by tabs),
// venv_created=, then one verdict: failed with msg; venvfail (the
// virtualenv command failed: its words in venvcmd); check with changed, or
// with list= and the list after "--output--"; ran with rc, listchanged,
// pipstart and outlen, then "--output--", the output and stderr.
//
//go:embed pip.sh
var pipScript string

// Run installs, upgrades or removes the packages.
func (pipModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := pipArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	state, names, version, reqFile := a.Str("state"), a.Strings("name"), a.Str("version"), a.Str("requirements")
	venv, chdir := a.Str("virtualenv"), a.Str("chdir")
	if venv != "" && chdir != "" && !path.IsAbs(venv) {
		venv = path.Join(chdir, venv)
	}
	umask := a.Str("umask")
	if umask != "" {
		if _, err := strconv.ParseUint(umask, 8, 32); err != nil {
			return shared.Fail("umask must be an octal integer"), nil
		}
	}
	if state == "latest" && version != "" {
		return shared.Fail("version is incompatible with state=latest"), nil
	}
	var reqs []pipReq
	hasVCS := false
	if len(names) > 0 {
		for _, n := range names {
			hasVCS = hasVCS || pipVCS.MatchString(n)
		}
		for _, n := range recoverPipNames(names) {
			reqs = append(reqs, parsePipReq(n))
		}
		if version != "" {
			if len(reqs) > 1 {
				return shared.Fail("'version' argument is ambiguous when installing multiple package distributions. Please specify version restrictions next to each package in 'name' argument."), nil
			}
			if len(reqs[0].specs) > 0 {
				return shared.Fail("The 'version' argument conflicts with any version specifier provided along with a package name. Please keep the version specifier, but remove the 'version' argument."), nil
			}
			v := strings.TrimLeft(version, " \t")
			sep := " "
			if v != "" && v[0] >= '0' && v[0] <= '9' {
				sep = "=="
			}
			reqs[0] = parsePipReq(reqs[0].String() + sep + v)
		}
	}
	extraArgs := a.Str("extra_args")
	if a.Bool("editable") {
		var l []string
		if extraArgs != "" {
			l = strings.Split(extraArgs, " ")
		}
		if !slices.Contains(l, "-e") {
			extraArgs = strings.Join(append(l, "-e"), " ")
		}
	}
	extra, err := shared.ShlexSplit(extraArgs)
	if err != nil {
		return tasks.Result{}, fmt.Errorf("extra_args: %w", err)
	}
	pipArgv := append([]string(nil), extra...)
	for _, r := range reqs {
		pipArgv = append(pipArgv, r.String())
	}
	if len(reqs) == 0 {
		pipArgv = append(pipArgv, "-r", reqFile)
	}
	venvCmd, venvPy, venvPyErr, err := pipVenvCommand(a)
	if err != nil {
		return tasks.Result{}, err
	}
	for _, l := range [][]string{pipArgv, venvCmd} {
		for _, w := range l {
			if strings.ContainsAny(w, "\n\r") {
				return tasks.Result{}, fmt.Errorf("pip: an argument holds a newline: %q", w)
			}
		}
	}
	checkAll := extraArgs != "" || reqFile != "" || state == "latest" || len(reqs) == 0
	script := shared.ShAssign([][2]string{
		{"venv", venv}, {"venvcmd", strings.Join(venvCmd, "\n")}, {"venvpy", shared.BoolFlag(venvPy)}, {"venvpyerr", shared.BoolFlag(venvPyErr)}, {"chdir", chdir},
		{"exe", a.Str("executable")}, {"verb", strings.Join(pipVerbs[state], "\n")}, {"args", strings.Join(pipArgv, "\n")},
		{"absent", shared.BoolFlag(state == "absent")}, {"listed", shared.BoolFlag(reqFile != "" || hasVCS)}, {"checkall", shared.BoolFlag(checkAll)},
		{"umask", umask}, {"_t_check", shared.BoolFlag(env.Check)},
	}) + pipScript
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, output := shared.SplitOutput(out.Stdout)
	n := min(max(shared.Atoi(v["outlen"]), 0), len(output))
	stdout, stderr := output[:n], output[n:]
	switch v["verdict"] {
	case "failed":
		return shared.Fail(v["msg"]), nil
	case "venvfail":
		cmd := toAny(strings.Fields(v["venvcmd"]))
		return tasks.Result{Failed: true, Msg: pipFailMsg(stdout, stderr), Data: map[string]any{"cmd": append(cmd, venv)}}, nil
	case "check":
		return pipCheck(v, stdout, stderr, state, reqs), nil
	case "ran":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}, nil
	}
	cmd := toAny(strings.Split(v["pip"], "\t"))
	for _, w := range append(append([]string(nil), pipVerbs[state]...), pipArgv...) {
		cmd = append(cmd, w)
	}
	if v["rc"] != "0" {
		return tasks.Result{Failed: true, Msg: pipFailMsg(stdout, stderr), Data: map[string]any{"cmd": cmd}}, nil
	}
	pipOut := stdout[min(max(shared.Atoi(v["pipstart"]), 0), len(stdout)):]
	var changed bool
	switch {
	case state == "absent":
		changed = strings.Contains(pipOut, "Successfully uninstalled")
	case reqFile != "" || hasVCS:
		changed = v["listchanged"] == "1"
	default:
		changed = strings.Contains(pipOut, "Successfully installed")
	}
	orNil := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	var nameV any
	if len(names) > 0 {
		nameV = toAny(names)
	}
	data := map[string]any{"cmd": cmd, "stdout": stdout, "stderr": stderr, "stdout_lines": shared.Lines(stdout), "stderr_lines": shared.Lines(stderr),
		"name": nameV, "version": orNil(version), "state": state, "requirements": orNil(reqFile), "virtualenv": orNil(venv)}
	return tasks.Result{Changed: changed || v["venv_created"] == "1", Data: data}, nil
}

// pipVenvCommand is the command that makes a virtualenv (the path is
// added last), whether the host's python is to be named with -p, as
// Ansible's pip does for virtualenv when virtualenv_python is not set, and
// whether making one must fail because virtualenv_python was given for
// venv or pyvenv, which take no -p.
func pipVenvCommand(a tasks.Values) (cmd []string, defaultPy, pyErr bool, err error) {
	raw := a.Str("virtualenv_command")
	cmd, err = shared.ShlexSplit(raw)
	if err != nil || len(cmd) == 0 {
		return nil, false, false, fmt.Errorf("virtualenv_command: cannot split %q", raw)
	}
	if a.Bool("virtualenv_site_packages") {
		cmd = append(cmd, "--system-site-packages")
	}
	isVenv := strings.Contains(raw, "pyvenv") || strings.Contains(raw, "-m venv")
	p := a.Str("virtualenv_python")
	switch {
	case isVenv:
		return cmd, false, p != "", nil
	case p != "":
		return append(cmd, "-p"+p), false, false, nil
	}
	return cmd, true, false, nil
}

// pipFailMsg is Ansible's message for a failed pip or virtualenv command.
func pipFailMsg(stdout, stderr string) string {
	msg := ""
	if stdout != "" {
		msg = "stdout: " + stdout
	}
	if stderr != "" {
		msg += "\n:stderr: " + stderr
	}
	return msg
}

// pipCheck is check mode's answer: changed when the virtualenv is missing
// or the task cannot be judged from the installed list (extra_args, a
// requirements file, state=latest); otherwise when a package to be present
// is missing or one to be absent is there (a forced reinstall is never
// changed, as in Ansible).
func pipCheck(v shared.Verdict, stdout, stderr, state string, reqs []pipReq) tasks.Result {
	if v["list"] == "" {
		return tasks.Result{Changed: v["changed"] == "1", Data: map[string]any{}}
	}
	cmd := strings.ReplaceAll(v["pip"], "\t", " ") + " list --format=freeze"
	if v["list"] == "freeze" {
		cmd = strings.ReplaceAll(v["pip"], "\t", " ") + " freeze"
	}
	type inst struct{ key, version string }
	var installed []inst
	for _, l := range strings.Split(stdout, "\n") {
		if l == "" || strings.HasPrefix(l, "You are using") || strings.HasPrefix(l, "You should consider") {
			continue
		}
		if n, ver, ok := strings.Cut(l, "=="); ok && !strings.Contains(ver, "==") {
			installed = append(installed, inst{strings.ToLower(pipSepRE.ReplaceAllString(n, "-")), ver})
		}
	}
	changed := false
	for _, r := range reqs {
		present := false
		for _, i := range installed {
			if r.plain && i.key == r.key && r.satisfiedBy(i.version) {
				present = true
				break
			}
		}
		if (state == "present" && !present) || (state == "absent" && present) {
			changed = true
			break
		}
	}
	return tasks.Result{Changed: changed, Data: map[string]any{"cmd": cmd, "stdout": stdout, "stderr": stderr,
		"stdout_lines": shared.Lines(stdout), "stderr_lines": shared.Lines(stderr)}}
}

func toAny(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

func (pipModule) Spec() *tasks.Spec { return pipArgs }
