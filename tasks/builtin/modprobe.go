package builtin

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// modprobeModule loads or unloads a kernel module as community.general's
// modprobe module does (without persistent=). Whether the module is
// loaded is read from /proc/modules and the kernel's modules.builtin; a
// host without that list (a container, whose /lib/modules is empty) fails
// with the error reading it, as Ansible does, and a module the kernel
// refuses to load fails with modprobe's own message. One round trip.
type modprobeModule struct{}

var _ tasks.Module = (*modprobeModule)(nil)

var modprobeArgs = &tasks.Spec{
	Module: "modprobe",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "params", Default: ""},
	},
}

// modprobeScript loads ($state present) or unloads $name with the words
// of $@ as its parameters. It prints loaded= before, changed=, and on a
// failure fail=, rc= and the command's output (_t_tail).
const modprobeScript = `
command -v modprobe >/dev/null 2>&1 || { echo 'fail=Failed to find required executable "modprobe" in paths: '"$PATH"; exit 0; }
_loaded() {
	_n=$(printf '%s' "$name" | tr - _)
	awk -v n="$_n " 'index($0, n) == 1 { f = 1; exit } END { exit !f }' /proc/modules 2>"$_t_d/le" && return 0
	[ -r /proc/modules ] || { echo "pyerr=[Errno 2] No such file or directory: '/proc/modules'"; exit 0; }
	_b=/lib/modules/$(uname -r)/modules.builtin
	[ -r "$_b" ] || { echo "pyerr=[Errno 2] No such file or directory: '$_b'"; exit 0; }
	awk -v m="/$name.ko" '{ sub(/[ \t\r\n]+$/, "") } length($0) >= length(m) && substr($0, length($0) - length(m) + 1) == m { f = 1; exit } END { exit !f }' "$_b"
}
_t_fail() { echo fail=rc; echo "rc=$rc"; _t_tail; exit 0; }
if [ "$state" = present ]; then
	_loaded && { echo changed=0; exit 0; }
	if [ -n "$check" ]; then _t_run modprobe -n "$name" "$@" || _t_fail; echo changed=1; exit 0; fi
	_t_run modprobe "$name" "$@" || _t_fail
	if _loaded; then echo changed=1; exit 0; fi
	if ! modprobe -n --first-time "$name" "$@" >/dev/null 2>"$_t_d/w"; then
		printf 'warn=%s\n' "$(tr '\n' ' ' <"$_t_d/w")"
	fi
	echo changed=0
else
	_loaded || { echo changed=0; exit 0; }
	set -- -r "$name"
	[ -n "$check" ] && set -- "$@" -n
	_t_run modprobe "$@" || _t_fail
	echo changed=1
fi
`

// Run loads or unloads the module.
func (modprobeModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := modprobeArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, state, params := a.Str("name"), a.Str("state"), a.Str("params")
	words, err := shlexSplit(params)
	if err != nil {
		return tasks.Result{}, fmt.Errorf("params: %v", err)
	}
	var set strings.Builder
	set.WriteString("set --")
	for _, w := range words {
		set.WriteString(" " + q(w))
	}
	script := fmt.Sprintf("%sname=%s\nstate=%s\ncheck=%s\n%s\n%s", sysFuncs, q(name), q(state), boolFlag(env.Check), set.String(), modprobeScript)
	res, err := run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := tailed(res.Stdout)
	data := map[string]any{"name": name, "params": params, "state": state}
	switch {
	case v["pyerr"] != "":
		return tasks.Result{Failed: true, Msg: v["pyerr"], Data: data}, nil
	case v["fail"] == "rc":
		rc, _ := strconv.Atoi(v["rc"])
		data["rc"] = rc
		outputData(data, out, errOut)
		if _, ok := data["stdout"]; !ok {
			data["stdout"], data["stdout_lines"] = "", []any{}
		}
		if _, ok := data["stderr"]; !ok {
			data["stderr"], data["stderr_lines"] = "", []any{}
		}
		return tasks.Result{Failed: true, Msg: errOut, Data: data}, nil
	case v["fail"] != "":
		return tasks.Result{Failed: true, Msg: v["fail"], Data: map[string]any{}}, nil
	case res.ExitCode != 0 || v["changed"] == "":
		return tasks.Result{Failed: true, Msg: scriptError(res), Data: map[string]any{}}, nil
	}
	r := tasks.Result{Changed: v["changed"] == "1", Data: data}
	if w := strings.TrimSpace(v["warn"]); w != "" {
		r.Warnings = []string{w}
	}
	return withWarnings(r), nil
}
