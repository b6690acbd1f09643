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

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
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

// pipJob is one pip task: its decoded arguments and the pip and
// virtualenv command lines planned from them.
type pipJob struct {
	state, version, reqFile string
	names                   []string
	venv, chdir, umask, exe string
	// extraArgs is extra_args, with -e added for editable.
	extraArgs string
	reqs      []pipReq
	// hasVCS is whether a name is a VCS URL, whose install is judged by
	// pip's list of packages.
	hasVCS bool
	// argv is pip's words after the verb: the extra arguments, then the
	// requirements or -r and the requirements file.
	argv              []string
	venvCmd           []string
	venvPy, venvPyErr bool
	check             bool
}

// Run installs, upgrades or removes the packages.
func (pipModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := pipArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad, err := decodePip(a, env.Check)
	if err != nil {
		return tasks.Result{}, err
	}
	if bad != nil {
		return *bad, nil
	}
	out, err := shared.RunSplit(ctx, env, j.script(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(out), nil
}

// decodePip validates pip's arguments and plans the job. A non-nil
// result is the failure Ansible reports for bad arguments.
func decodePip(a tasks.Values, check bool) (pipJob, *tasks.Result, error) {
	j := pipJob{state: a.Str("state"), names: a.Strings("name"), version: a.Str("version"), reqFile: a.Str("requirements"),
		venv: a.Str("virtualenv"), chdir: a.Str("chdir"), umask: a.Str("umask"), exe: a.Str("executable"), check: check}
	if j.venv != "" && j.chdir != "" && !path.IsAbs(j.venv) {
		j.venv = path.Join(j.chdir, j.venv)
	}
	if j.umask != "" {
		if _, err := strconv.ParseUint(j.umask, 8, 32); err != nil {
			return j, pipBadArgs("umask must be an octal integer"), nil
		}
	}
	if j.state == "latest" && j.version != "" {
		return j, pipBadArgs("version is incompatible with state=latest"), nil
	}
	if msg := j.planReqs(); msg != "" {
		return j, pipBadArgs(msg), nil
	}
	j.extraArgs = pipExtraArgs(a.Str("extra_args"), a.Bool("editable"))
	extra, err := shlex.Split(j.extraArgs)
	if err != nil {
		return j, nil, fmt.Errorf("extra_args: %w", err)
	}
	j.argv = append([]string(nil), extra...)
	for _, r := range j.reqs {
		j.argv = append(j.argv, r.String())
	}
	if len(j.reqs) == 0 {
		j.argv = append(j.argv, "-r", j.reqFile)
	}
	if j.venvCmd, j.venvPy, j.venvPyErr, err = pipVenvCommand(a); err != nil {
		return j, nil, err
	}
	for _, l := range [][]string{j.argv, j.venvCmd} {
		for _, w := range l {
			if strings.ContainsAny(w, "\n\r") {
				return j, nil, fmt.Errorf("pip: an argument holds a newline: %q", w)
			}
		}
	}
	return j, nil, nil
}

// pipBadArgs is the failed result, with msg, that pip gives for bad
// arguments.
func pipBadArgs(msg string) *tasks.Result {
	r := shared.Fail(msg)
	return &r
}

// planReqs parses the names into requirements, folding version into the
// only one, and notes whether a name is a VCS URL. It returns Ansible's
// message when version cannot be applied, else "".
func (j *pipJob) planReqs() string {
	if len(j.names) == 0 {
		return ""
	}
	for _, n := range j.names {
		j.hasVCS = j.hasVCS || pipVCS.MatchString(n)
	}
	for _, n := range recoverPipNames(j.names) {
		j.reqs = append(j.reqs, parsePipReq(n))
	}
	if j.version == "" {
		return ""
	}
	if len(j.reqs) > 1 {
		return "'version' argument is ambiguous when installing multiple package distributions. Please specify version restrictions next to each package in 'name' argument."
	}
	if len(j.reqs[0].specs) > 0 {
		return "The 'version' argument conflicts with any version specifier provided along with a package name. Please keep the version specifier, but remove the 'version' argument."
	}
	v := strings.TrimLeft(j.version, " \t")
	sep := " "
	if v != "" && v[0] >= '0' && v[0] <= '9' {
		sep = "=="
	}
	j.reqs[0] = parsePipReq(j.reqs[0].String() + sep + v)
	return ""
}

// pipExtraArgs is extra_args with -e added when editable is set and -e
// is not already one of its space-separated words.
func pipExtraArgs(extraArgs string, editable bool) string {
	if !editable {
		return extraArgs
	}
	var l []string
	if extraArgs != "" {
		l = strings.Split(extraArgs, " ")
	}
	if !slices.Contains(l, "-e") {
		extraArgs = strings.Join(append(l, "-e"), " ")
	}
	return extraArgs
}

// script is pip.sh with the job's inputs assigned before it.
func (j pipJob) script() string {
	checkAll := j.extraArgs != "" || j.reqFile != "" || j.state == "latest" || len(j.reqs) == 0
	return shared.ShAssign([][2]string{
		{"venv", j.venv}, {"venvcmd", strings.Join(j.venvCmd, "\n")}, {"venvpy", shared.BoolFlag(j.venvPy)}, {"venvpyerr", shared.BoolFlag(j.venvPyErr)}, {"chdir", j.chdir},
		{"exe", j.exe}, {"verb", strings.Join(pipVerbs[j.state], "\n")}, {"args", strings.Join(j.argv, "\n")},
		{"absent", shared.BoolFlag(j.state == "absent")}, {"listed", shared.BoolFlag(j.reqFile != "" || j.hasVCS)}, {"checkall", shared.BoolFlag(checkAll)},
		{"umask", j.umask}, {"_t_check", shared.BoolFlag(j.check)},
	}) + pipScript
}

// result turns the script's verdict and output into what Ansible's pip
// returns.
func (j pipJob) result(out transport.Result) tasks.Result {
	v, output := shared.SplitOutput(out.Stdout)
	n := min(max(shared.Atoi(v["outlen"]), 0), len(output))
	stdout, stderr := output[:n], output[n:]
	switch v["verdict"] {
	case "failed":
		return shared.Fail(v["msg"])
	case "venvfail":
		cmd := toAny(strings.Fields(v["venvcmd"]))
		return tasks.Result{Failed: true, Msg: pipFailMsg(stdout, stderr), Data: map[string]any{"cmd": append(cmd, j.venv)}}
	case "check":
		return pipCheck(v, stdout, stderr, j.state, j.reqs)
	case "ran":
		return j.ran(v, stdout, stderr)
	}
	return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}
}

// ran is the result once pip has run: failed with pip's output when it
// exited non-zero, else changed as pip's output or its list of packages
// says, or when the virtualenv was made.
func (j pipJob) ran(v shared.Verdict, stdout, stderr string) tasks.Result {
	cmd := toAny(strings.Split(v["pip"], "\t"))
	for _, w := range append(append([]string(nil), pipVerbs[j.state]...), j.argv...) {
		cmd = append(cmd, w)
	}
	if v["rc"] != "0" {
		return tasks.Result{Failed: true, Msg: pipFailMsg(stdout, stderr), Data: map[string]any{"cmd": cmd}}
	}
	pipOut := stdout[min(max(shared.Atoi(v["pipstart"]), 0), len(stdout)):]
	var changed bool
	switch {
	case j.state == "absent":
		changed = strings.Contains(pipOut, "Successfully uninstalled")
	case j.reqFile != "" || j.hasVCS:
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
	if len(j.names) > 0 {
		nameV = toAny(j.names)
	}
	data := map[string]any{"cmd": cmd, "stdout": stdout, "stderr": stderr, "stdout_lines": shared.Lines(stdout), "stderr_lines": shared.Lines(stderr),
		"name": nameV, "version": orNil(j.version), "state": j.state, "requirements": orNil(j.reqFile), "virtualenv": orNil(j.venv)}
	return tasks.Result{Changed: changed || v["venv_created"] == "1", Data: data}
}

// pipVenvCommand is the command that makes a virtualenv (the path is
// added last), whether the host's python is to be named with -p, as
// Ansible's pip does for virtualenv when virtualenv_python is not set, and
// whether making one must fail because virtualenv_python was given for
// venv or pyvenv, which take no -p.
func pipVenvCommand(a tasks.Values) (cmd []string, defaultPy, pyErr bool, err error) {
	raw := a.Str("virtualenv_command")
	cmd, err = shlex.Split(raw)
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

// toAny is the strings as a list of values, as results hold lists.
func toAny(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

func (pipModule) Spec() *tasks.Spec { return pipArgs }
