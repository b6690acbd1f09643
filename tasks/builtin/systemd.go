package builtin

import (
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// systemdModule controls systemd units with systemctl, as Ansible's
// systemd: daemon-reload, mask, enable and the running state, one round
// trip. Its status is systemctl show's properties from before any change.
type systemdModule struct{}

var _ tasks.Module = systemdModule{}

var systemdArgs = &tasks.Spec{
	Module: "systemd",
	Params: []tasks.Param{
		{Name: "name", Aliases: []string{"service", "unit"}},
		{Name: "state", Choices: []string{"reloaded", "restarted", "started", "stopped"}},
		{Name: "enabled", Kind: tasks.Bool},
		{Name: "force", Kind: tasks.Bool},
		{Name: "masked", Kind: tasks.Bool},
		{Name: "daemon_reload", Kind: tasks.Bool, Default: false, Aliases: []string{"daemon-reload"}},
		{Name: "daemon_reexec", Kind: tasks.Bool, Default: false, Aliases: []string{"daemon-reexec"}},
		{Name: "scope", Default: "system", Choices: []string{"system", "user", "global"}},
		{Name: "no_block", Kind: tasks.Bool, Default: false},
	},
	RequiredOneOf: [][]string{{"state", "enabled", "masked", "daemon_reload", "daemon_reexec"}},
}

// systemdScript does the systemd module's work. Inputs: name, state,
// enabled and masked ("", yes, no), reload and reexec (non-empty for on),
// opts (systemctl's extra options, already quoted words), _t_check. It
// prints key=value lines (verdict=failed with msg; or changed, enabled,
// warning, verdict=done) and then, after "--output--", systemctl show's
// output from before any change or, on failure, the failed command's
// output as it is, which ends the message.
const systemdScript = `
export LANG=C LC_ALL=C
_t_fail() { echo verdict=failed; printf 'msg=%s\n' "$(printf %s "$*" | tr '\n' ' ')"; exit 0; }
# _t_failout MSG FILE: fails with MSG followed by FILE's text as it is.
_t_failout() { echo verdict=failed; printf 'msg=%s\n' "$1"; echo --output--; cat "$2"; exit 0; }
sc=$(PATH=$PATH:/sbin:/usr/sbin command -v systemctl) || _t_fail "Failed to find required executable \"systemctl\" in paths: $PATH"
[ -n "$XDG_RUNTIME_DIR" ] || export XDG_RUNTIME_DIR=/run/user/$(id -u)
tmp=$(mktemp -d) || _t_fail "could not create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
_sc() { "$sc" $opts "$@"; }
if [ -n "$reload" ] && [ -z "$_t_check" ]; then
	_sc daemon-reload >/dev/null 2>"$tmp/e" || _t_failout "failure $? during daemon-reload: " "$tmp/e"
fi
if [ -n "$reexec" ] && [ -z "$_t_check" ]; then
	_sc daemon-reexec >/dev/null 2>"$tmp/e" || _t_failout "failure $? during daemon-reexec: " "$tmp/e"
fi
: >"$tmp/show"
[ -n "$name" ] || { echo verdict=done; exit 0; }
initd=; [ -f "/etc/init.d/$name" ] && initd=1
sd=
if _sc show "$name" >"$tmp/show" 2>"$tmp/e" && ! grep -q 'ignoring request' "$tmp/show" "$tmp/e"; then
	ls=$(sed -n 's/^LoadState=//p' "$tmp/show")
	[ -n "$ls" ] && [ "$ls" != not-found ] && sd=1
	le=$(sed -n 's/^LoadError=//p' "$tmp/show")
	[ -n "$sd" ] && [ "$ls" != masked ] && [ -n "$le" ] && _t_fail "Error loading unit file '$name': $le"
else
	: >"$tmp/show"
	case $(_sc is-enabled "$name" 2>/dev/null) in
	enabled|enabled-runtime|linked|linked-runtime|masked|masked-runtime|static|indirect|disabled|generated|transient) sd=1 ;;
	*) _sc list-unit-files "$name" >/dev/null 2>&1 && sd=1 ;;
	esac
fi
found=$sd$initd
[ -n "$initd" ] && [ -z "$sd" ] && echo "warning=The service ($name) is actually an init script but the system is managed by systemd"
missing="Could not find the requested service $name: host"
if [ -n "$masked" ]; then
	cur=no; [ "$(_sc is-enabled "$name" 2>/dev/null)" = masked ] && cur=yes
	if [ "$cur" != "$masked" ]; then
		echo changed=1
		if [ -z "$_t_check" ]; then
			if [ "$masked" = yes ]; then act=mask; else act=unmask; fi
			_sc "$act" "$name" >/dev/null 2>&1 || { [ -n "$found" ] || _t_fail "$missing"; }
		fi
	fi
fi
if [ -n "$enabled" ]; then
	[ -n "$found" ] || _t_fail "$missing"
	cur=no
	out=$(_sc is-enabled "$name" -l 2>/dev/null); rc=$?
	if [ $rc -eq 0 ]; then
		case $out in indirect|alias) ;; *) cur=yes ;; esac
	elif [ $rc -eq 1 ] && [ "$scope" = system ] && [ -n "$initd" ]; then
		case $out in *disabled) ;; *) ls /etc/rc?.d/S??"$name" >/dev/null 2>&1 && cur=yes ;; esac
	fi
	echo "enabled=$cur"
	if [ "$cur" != "$enabled" ]; then
		echo changed=1; echo "enabled=$enabled"
		if [ -z "$_t_check" ]; then
			if [ "$enabled" = yes ]; then act=enable; else act=disable; fi
			_sc "$act" "$name" >"$tmp/o" 2>&1 || _t_failout "Unable to $act service $name: " "$tmp/o"
		fi
	fi
fi
if [ -n "$state" ]; then
	[ -n "$found" ] || _t_fail "$missing"
	as=$(sed -n 's/^ActiveState=//p' "$tmp/show")
	[ -n "$as" ] || _t_fail "Service is in unknown state"
	run=; case $as in active|activating) run=1 ;; esac
	act=
	case $state in
	started) [ -n "$run" ] || act=start ;;
	stopped) { [ -n "$run" ] || [ "$as" = deactivating ]; } && act=stop ;;
	*) if [ -n "$run" ]; then act=${state%ed}; else act=start; fi ;;
	esac
	if [ -n "$act" ]; then
		echo changed=1
		if [ -z "$_t_check" ]; then
			_sc "$act" "$name" >/dev/null 2>"$tmp/e" || _t_failout "Unable to $act service $name: " "$tmp/e"
		fi
	fi
fi
echo verdict=done
echo --output--
cat "$tmp/show"
`

// Run brings the unit to the state asked.
func (systemdModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := systemdArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name := a.Str("name")
	for _, k := range []string{"state", "enabled", "masked"} {
		if a.Has(k) && name == "" {
			return tasks.Result{}, fmt.Errorf("missing parameter(s) required by '%s': name", k)
		}
	}
	if strings.ContainsAny(name, "*?[") {
		c := name[strings.IndexAny(name, "*?["):][:1]
		return fail(fmt.Sprintf("This module does not currently support using glob patterns, found '%s' in service name: %s", c, name)), nil
	}
	yn := func(k string) string {
		if !a.Has(k) {
			return ""
		}
		if a.Bool(k) {
			return "yes"
		}
		return "no"
	}
	opts := ""
	if s := a.Str("scope"); s != "system" {
		opts += " --" + s
	}
	if a.Bool("no_block") {
		opts += " --no-block"
	}
	if a.Bool("force") {
		opts += " --force"
	}
	vars := [][2]string{
		{"name", name}, {"state", a.Str("state")}, {"enabled", yn("enabled")}, {"masked", yn("masked")},
		{"reload", shFlag(a.Bool("daemon_reload"))}, {"reexec", shFlag(a.Bool("daemon_reexec"))},
		{"scope", a.Str("scope")}, {"_t_check", shFlag(env.Check)},
	}
	vars = append(vars, [2]string{"opts", strings.TrimSpace(opts)})
	script := shAssign(vars) + systemdScript
	out, err := run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, show := splitOutput(out.Stdout)
	var res tasks.Result
	if w := v["warning"]; w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	switch v["verdict"] {
	case "failed":
		res.Failed, res.Msg, res.Data = true, v["msg"]+show, map[string]any{}
		return res, nil
	case "done":
	default:
		return tasks.Result{Failed: true, Msg: scriptError(out), RC: out.ExitCode}, nil
	}
	var nameV any
	if name != "" {
		nameV = name
	}
	res.Changed = v["changed"] == "1"
	res.Data = map[string]any{"name": nameV, "status": parseSystemctlShow(show)}
	if e, ok := v["enabled"]; ok {
		res.Data["enabled"] = e == "yes"
	}
	if st := a.Str("state"); st != "" {
		if st == "reloaded" || st == "restarted" {
			st = "started"
		}
		res.Data["state"] = st
	}
	return res, nil
}

// parseSystemctlShow reads systemctl show's Key=Value lines; an Exec*
// value in braces may span lines.
func parseSystemctlShow(out string) map[string]any {
	parsed := map[string]any{}
	var key string
	var multi []string
	for _, line := range strings.Split(out, "\n") {
		if key == "" {
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			if strings.HasPrefix(k, "Exec") && strings.HasPrefix(strings.TrimLeft(v, " \t"), "{") && !strings.HasSuffix(strings.TrimRight(v, " \t"), "}") {
				key, multi = k, []string{v}
				continue
			}
			parsed[k] = strings.TrimSpace(v)
			continue
		}
		multi = append(multi, line)
		if strings.HasSuffix(strings.TrimRight(line, " \t"), "}") {
			parsed[key] = strings.TrimSpace(strings.Join(multi, "\n"))
			key, multi = "", nil
		}
	}
	return parsed
}
