package builtin

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// groupModule manages a local group as Ansible's group module does on
// Linux, in one round trip: groupadd/groupmod/groupdel, or busybox's
// addgroup/delgroup (and an edit of /etc/group for a new gid) where
// groupadd is missing.
type groupModule struct{}

var _ tasks.Module = (*groupModule)(nil)

var groupArgs = &tasks.Spec{
	Module: "group",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "gid", Kind: tasks.Int},
		{Name: "system", Kind: tasks.Bool, Default: false},
		{Name: "non_unique", Kind: tasks.Bool, Default: false},
	},
}

// groupScript adds, renumbers or removes the group $name. It prints
// changed=, created=, rc=, fail= and the group's gid=, then the commands'
// output (_t_tail).
const groupScript = `
fail() { echo "fail=$1"; exit 0; }
_t_grent() { _t_ent group "$1" 2>/dev/null | awk -F: -v n="$1" '$1 == n { print; exit }'; }
if command -v groupadd >/dev/null 2>&1; then kind=shadow
elif command -v addgroup >/dev/null 2>&1; then kind=busybox
else fail 'Failed to find required executable "groupadd" in paths: '"$PATH"
fi
ent=$(_t_grent "$name")
rc=
if [ "$state" = absent ]; then
	[ -n "$ent" ] || { echo changed=0; exit 0; }
	echo changed=1
	[ -z "$check" ] || exit 0
	if [ $kind = shadow ]; then _t_run groupdel "$name"; else _t_run delgroup "$name"; fi
elif [ -z "$ent" ]; then
	echo changed=1
	echo created=1
	[ -z "$check" ] || exit 0
	if [ $kind = shadow ]; then
		set -- groupadd
		[ -n "$gid" ] && { set -- "$@" -g "$gid"; [ -n "$nonuniq" ] && set -- "$@" -o; }
		[ -n "$system" ] && set -- "$@" -r
	else
		set -- addgroup
		[ -n "$gid" ] && set -- "$@" -g "$gid"
		[ -n "$system" ] && set -- "$@" -S
	fi
	_t_run "$@" "$name"
else
	cgid=$(printf '%s\n' "$ent" | cut -d: -f3)
	if [ -n "$gid" ] && [ "$gid" != "$cgid" ]; then
		echo changed=1
		if [ $kind = shadow ]; then
			set -- groupmod -g "$gid"
			[ -n "$nonuniq" ] && set -- "$@" -o
			[ -n "$check" ] || _t_run "$@" "$name"
		else
			awk -F: -v g="$gid" '$3 == g { f = 1 } END { exit !f }' /etc/group && fail "gid '$gid' in use"
			if [ -z "$check" ]; then
				awk -F: -v OFS=: -v n="$name" -v g="$gid" '$1 == n { $3 = g } { print }' /etc/group >/etc/group.tender &&
					cat /etc/group.tender >/etc/group && rm -f /etc/group.tender
				rc=$?
			fi
		fi
	else
		echo changed=0
	fi
fi
if [ -n "$rc" ]; then
	echo "rc=$rc"
	[ "$rc" -eq 0 ] || { echo fail=rc; _t_tail; exit 0; }
fi
ent=$(_t_grent "$name")
[ -z "$ent" ] || echo "gid=$(printf '%s\n' "$ent" | cut -d: -f3)"
_t_tail
`

// Run adds, changes or removes the group.
func (groupModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := groupArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if a.Bool("non_unique") && !a.Has("gid") {
		return tasks.Result{}, fmt.Errorf("non_unique is True but all of the following are missing: gid")
	}
	name, state := a.Str("name"), a.Str("state")
	gid := ""
	if a.Has("gid") {
		gid = strconv.Itoa(a.Int("gid"))
	}
	var script strings.Builder
	script.WriteString(shFuncs + sysFuncs)
	for _, kv := range [][2]string{{"name", name}, {"state", state}, {"gid", gid},
		{"nonuniq", boolFlag(a.Bool("non_unique"))}, {"system", boolFlag(a.Bool("system"))}, {"check", boolFlag(env.Check)}} {
		fmt.Fprintf(&script, "%s=%s\n", kv[0], q(kv[1]))
	}
	script.WriteString(groupScript)
	res, err := run(ctx, env, script.String(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := tailed(res.Stdout)
	switch {
	case res.ExitCode != 0 && v["fail"] == "":
		return tasks.Result{Failed: true, Msg: scriptError(res), Data: map[string]any{}}, nil
	case v["fail"] == "rc":
		return tasks.Result{Failed: true, Msg: errOut, Data: map[string]any{"name": name}}, nil
	case v["fail"] != "":
		return tasks.Result{Failed: true, Msg: v["fail"], Data: map[string]any{}}, nil
	}
	r := tasks.Result{Changed: v["changed"] == "1", Data: map[string]any{}}
	if env.Check && r.Changed && (state == "absent" || v["created"] == "1") {
		return r, nil // Ansible says only "changed" here
	}
	d := r.Data
	d["name"], d["state"] = name, state
	outputData(d, out, errOut)
	if g, ok := v["gid"]; ok {
		n, _ := strconv.Atoi(g)
		d["gid"], d["system"] = n, a.Bool("system")
	}
	return r, nil
}
