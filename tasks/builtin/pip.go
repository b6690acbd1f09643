package builtin

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// pipModule manages Python packages with pip, as Ansible's pip: one
// round trip creates the virtualenv when missing, runs pip and compares
// pip freeze before and after, so changed means the installed set
// changed.
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

// pipScript runs pip. Inputs: venv, venvcmd (words, one per line), chdir,
// exe, args (pip's arguments after the verb's, one per line), verb (one
// per line), names (the packages to test in check mode, one per line),
// absent, simple (non-empty: check mode can decide from freeze), umask,
// _t_check. It prints pip=, venv_created=, then verdict=failed with msg,
// verdict=check with changed, or verdict=ran with rc, changed and
// outlen, then "--output--", the output and stderr.
const pipScript = `
_t_fail() { echo verdict=failed; printf 'msg=%s\n' "$(printf %s "$*" | tr '\n' ' ')"; exit 0; }
tmp=$(mktemp -d) || _t_fail "could not create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
[ -n "$umask" ] && umask "$umask"
[ -n "$chdir" ] || chdir=${TMPDIR:-/tmp}
cd "$chdir" || _t_fail "Unable to change directory to $chdir"
IFS='
'
set -f
: >"$tmp/out"; : >"$tmp/err"
if [ -n "$venv" ] && [ ! -e "$venv/bin/activate" ]; then
	if [ -n "$_t_check" ]; then echo verdict=check; echo changed=1; exit 0; fi
	command -v "${venvcmd%%
*}" >/dev/null 2>&1 || _t_fail "Failed to find required executable \"${venvcmd%%
*}\" in paths: $PATH"
	$venvcmd "$venv" >>"$tmp/out" 2>>"$tmp/err" || _t_fail "Failed to create the virtualenv: $(cat "$tmp/err")"
	echo venv_created=1
fi
if [ -n "$exe" ]; then pip=$(command -v "$exe") || pip=$exe
elif [ -n "$venv" ]; then pip=$venv/bin/pip
else pip=$(command -v pip3 || command -v pip) || _t_fail "Unable to find any of pip3, pip to use.  pip needs to be installed."
fi
echo "pip=$pip"
"$pip" freeze >"$tmp/before" 2>/dev/null
_t_key() { tr 'A-Z_.' 'a-z--'; }
if [ -n "$_t_check" ]; then
	[ -n "$simple" ] || { echo verdict=check; echo changed=1; exit 0; }
	sed 's/==.*//' "$tmp/before" | _t_key >"$tmp/names"
	ch=
	for n in $names; do
		case $n in
		*==*) k=$(printf %s "${n%%==*}" | _t_key); v=${n#*==}
			p=; while IFS= read -r l; do
				lk=$(printf %s "${l%%==*}" | _t_key)
				[ "$lk" = "$k" ] && [ "${l#*==}" = "$v" ] && p=1
			done <"$tmp/before" ;;
		*) k=$(printf %s "$n" | _t_key); grep -qxF -- "$k" "$tmp/names" && p=1 || p= ;;
		esac
		if [ -n "$absent" ]; then [ -n "$p" ] && ch=1; else [ -z "$p" ] && ch=1; fi
	done
	echo verdict=check; echo "changed=$ch"
	echo --output--; cat "$tmp/before"; exit 0
fi
"$pip" $verb $args >>"$tmp/out" 2>>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ -n "$absent" ] && grep -q 'not installed' "$tmp/out" "$tmp/err"; then rc=0; fi
"$pip" freeze >"$tmp/after" 2>/dev/null
echo verdict=ran; echo "rc=$rc"
cmp -s "$tmp/before" "$tmp/after" || echo changed=1
echo "outlen=$(wc -c <"$tmp/out")"
echo --output--; cat "$tmp/out" "$tmp/err"
`

// Run installs, upgrades or removes the packages.
func (pipModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := pipArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	state, names, version := a.Str("state"), a.Strings("name"), a.Str("version")
	if state == "latest" && version != "" {
		return fail("version is incompatible with state=latest"), nil
	}
	if version != "" && len(names) > 1 {
		return fail("'version' argument is ambiguous when installing multiple package distributions. Please specify version restrictions next to each package in 'name' argument."), nil
	}
	pkgs := append([]string(nil), names...)
	simple := true
	for i, n := range pkgs {
		if strings.ContainsAny(n, "<>=!~;[@:/") {
			if version != "" {
				return fail("The 'version' argument conflicts with any version specifier provided along with a package name. Please keep the version specifier, but remove the 'version' argument."), nil
			}
			simple = simple && !strings.ContainsAny(strings.Replace(n, "==", "", 1), "<>=!~;[@:/")
		}
		if version != "" && i == 0 {
			pkgs[0] = n + "==" + version
			if strings.ContainsAny(version, "<>=!~") {
				pkgs[0] = n + version
				simple = false
			}
		}
	}
	extra, err := shlexSplit(a.Str("extra_args"))
	if err != nil {
		return tasks.Result{}, fmt.Errorf("extra_args: %w", err)
	}
	if a.Bool("editable") && !slices.Contains(extra, "-e") {
		extra = append(extra, "-e")
	}
	simple = simple && len(extra) == 0 && state != "latest" && state != "forcereinstall" && len(names) > 0
	pipArgv := append([]string(nil), extra...)
	if len(pkgs) > 0 {
		pipArgv = append(pipArgv, pkgs...)
	} else {
		pipArgv = append(pipArgv, "-r", a.Str("requirements"))
	}
	venvCmd, err := shlexSplit(a.Str("virtualenv_command"))
	if err != nil || len(venvCmd) == 0 {
		return tasks.Result{}, fmt.Errorf("virtualenv_command: cannot split %q", a.Str("virtualenv_command"))
	}
	if a.Bool("virtualenv_site_packages") {
		venvCmd = append(venvCmd, "--system-site-packages")
	}
	if p := a.Str("virtualenv_python"); p != "" {
		if strings.HasSuffix(venvCmd[0], "venv") && len(venvCmd) > 1 && venvCmd[len(venvCmd)-1] == "venv" {
			return fail("virtualenv_python should not be used when using the venv module or pyvenv as virtualenv_command"), nil
		}
		venvCmd = append(venvCmd, "-p"+p)
	}
	for _, l := range [][]string{pipArgv, venvCmd} {
		for _, w := range l {
			if strings.ContainsAny(w, "\n\r") {
				return tasks.Result{}, fmt.Errorf("pip: an argument holds a newline: %q", w)
			}
		}
	}
	script := shAssign([][2]string{
		{"venv", a.Str("virtualenv")}, {"venvcmd", strings.Join(venvCmd, "\n")}, {"chdir", a.Str("chdir")},
		{"exe", a.Str("executable")}, {"verb", strings.Join(pipVerbs[state], "\n")}, {"args", strings.Join(pipArgv, "\n")},
		{"names", strings.Join(pkgs, "\n")}, {"absent", shFlag(state == "absent")}, {"simple", shFlag(simple)},
		{"umask", a.Str("umask")}, {"_t_check", shFlag(env.Check)},
	}) + pipScript
	out, err := run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, output := splitOutput(out.Stdout)
	switch v["verdict"] {
	case "failed":
		return fail(v["msg"]), nil
	case "check":
		res := tasks.Result{Changed: v["changed"] == "1", Data: map[string]any{}}
		if _, ok := v["pip"]; ok && simple {
			res.Data = map[string]any{"cmd": v["pip"] + " freeze", "stdout": output, "stderr": "", "stdout_lines": lines(output), "stderr_lines": []any{}}
		}
		return res, nil
	case "ran":
	default:
		return tasks.Result{Failed: true, Msg: scriptError(out), RC: out.ExitCode}, nil
	}
	n := min(max(atoi(v["outlen"]), 0), len(output))
	stdout, stderr := output[:n], output[n:]
	cmd := []any{v["pip"]}
	for _, w := range append(append([]string(nil), pipVerbs[state]...), pipArgv...) {
		cmd = append(cmd, w)
	}
	data := map[string]any{"cmd": cmd, "stdout": stdout, "stderr": stderr, "stdout_lines": lines(stdout), "stderr_lines": lines(stderr)}
	if v["rc"] != "0" {
		data["rc"] = atoi(v["rc"])
		return tasks.Result{Failed: true, RC: atoi(v["rc"]), Msg: fmt.Sprintf("stdout: %s\n:stderr: %s", stdout, stderr), Data: data}, nil
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
	data["name"], data["version"], data["state"] = nameV, orNil(version), state
	data["requirements"], data["virtualenv"] = orNil(a.Str("requirements")), orNil(a.Str("virtualenv"))
	return tasks.Result{Changed: v["changed"] == "1" || v["venv_created"] == "1", Data: data}, nil
}

func toAny(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}
