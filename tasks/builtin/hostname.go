package builtin

import (
	"context"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// hostnameModule sets the host's name with the strategy Ansible's
// hostname module would pick (or the one named by use): hostnamectl on a
// host managed by systemd, else by distribution the name file
// (/etc/hostname on Debian and its kin, also applied with hostname -F on
// Alpine), /etc/sysconfig/network on RedHat, /etc/conf.d/hostname on
// OpenRC. As with Ansible, the file strategies of Debian-like hosts
// change the permanent name only: the running name follows at the next
// boot. A host that refuses the change (a container without
// CAP_SYS_ADMIN asked to run hostname or hostnamectl) fails with the
// command's error, as Ansible does.
type hostnameModule struct{}

var _ tasks.Module = (*hostnameModule)(nil)

var hostnameArgs = &tasks.Spec{
	Module: "hostname",
	Params: []tasks.Param{
		{Name: "name", Required: true},
		{Name: "use", Choices: []string{"alpine", "debian", "freebsd", "generic", "macos", "macosx", "darwin", "openbsd", "openrc", "redhat", "sles", "solaris", "systemd"}},
	},
}

// hostnameScript reads the current and permanent names with $strategy
// (picked here when empty), sets them to $name unless $check, and prints
// the verdict: strategy, current, permanent, changed, fqdn.
const hostnameScript = `
fail() { printf '%s' "$1" >"$_t_d/e"; _t_failed; }
_t_failed() { : >"$_t_d/o"; echo fail=1; _t_tail; exit 0; }
_t_cmd() { # _t_cmd VAR command...: VAR=its output, or fail as Ansible's "Command failed"
	_v=$1; shift
	"$@" >"$_t_d/o1" 2>"$_t_d/e1"; _rc=$?
	if [ $_rc -ne 0 ]; then
		{ printf 'Command failed rc=%s, out=' $_rc; cat "$_t_d/o1"; printf ', err='; cat "$_t_d/e1"; } >"$_t_d/e"
		_t_failed
	fi
	eval "$_v=\$(cat \"\$_t_d/o1\")"
}
if [ -z "$strategy" ]; then
	if command -v systemctl >/dev/null 2>&1 && { [ -d /run/systemd/system ] || [ -d /dev/.run/systemd ] || [ -d /dev/.systemd ]; }; then
		strategy=systemd
	else
		_id=$(. /etc/os-release 2>/dev/null; echo "$ID")
		case $_id in
		debian | ubuntu | linuxmint | kali | parrot | raspbian | devuan | deepin | uos | kylin | cumulus-linux | linaro) strategy=file ;;
		alpine) strategy=alpine ;;
		rhel | centos | fedora | amzn | ol | almalinux | rocky | scientific | cloudlinux | virtuozzo) strategy=redhat ;;
		gentoo) strategy=openrc ;;
		*) _d=$(printf '%s' "$_id" | awk '{ print toupper(substr($0, 1, 1)) substr($0, 2) }')
			fail "hostname module cannot be used on platform Linux${_d:+ ($_d)}" ;;
		esac
	fi
fi
_file() { # the file's content without surrounding white space
	[ -f "$1" ] || return 0
	_c=$(cat "$1") || fail "failed to read hostname: cannot read $1"
	_c=${_c#"${_c%%[![:space:]]*}"}
	printf '%s' "${_c%"${_c##*[![:space:]]}"}"
}
_setfile() { # write $2 to $1 through a temporary file, in place where a rename cannot replace it (a bind mount)
	_tmp=$(mktemp "$1.XXXXXX" 2>/dev/null) || _tmp=$(mktemp) || fail "failed to update hostname: cannot write $1"
	printf '%s' "$2" >"$_tmp"
	chmod 0644 "$_tmp"
	if ! mv -f -- "$_tmp" "$1" 2>/dev/null; then
		cat "$_tmp" >"$1" 2>"$_t_d/e" || { rm -f "$_tmp"; fail "failed to update hostname: $(cat "$_t_d/e")"; }
		rm -f -- "$_tmp"
	fi
}
case $strategy in
systemd)
	command -v hostnamectl >/dev/null 2>&1 || fail 'Failed to find required executable "hostnamectl" in paths: '"$PATH"
	_t_cmd current hostnamectl --transient status
	_t_cmd permanent hostnamectl --static status ;;
file | alpine) permanent=$(_file /etc/hostname); current=$permanent ;;
sles) permanent=$(_file /etc/HOSTNAME); current=$permanent ;;
redhat)
	permanent=$(awk '{ sub(/^[ \t]+/, "") } /^HOSTNAME/ { sub(/^[^=]*=/, ""); gsub(/^[ \t]+|[ \t]+$/, ""); print; f = 1; exit } END { exit !f }' /etc/sysconfig/network 2>/dev/null) ||
		fail "Unable to locate HOSTNAME entry in /etc/sysconfig/network"
	current=$permanent ;;
openrc) permanent=$(awk '{ gsub(/^[ \t]+|[ \t]+$/, "") } /^hostname=/ { v = substr($0, 11); gsub(/^"|"$/, "", v); print v; exit }' /etc/conf.d/hostname 2>/dev/null); current=$permanent ;;
*) fail "hostname module cannot use the $strategy strategy on Linux" ;;
esac
echo "strategy=$strategy"
printf 'current=%s\npermanent=%s\n' "$current" "$permanent"
changed=
_long() { [ ${#name} -le 64 ] || fail "name cannot be longer than 64 characters on systemd servers, try a shorter name"; }
if [ "$strategy" = systemd ]; then
	# The permanent name first, then the running one, as Ansible.
	if [ "$permanent" != "$name" ]; then
		changed=1
		[ -n "$check" ] || { _long; _t_cmd _ hostnamectl --pretty --static set-hostname "$name"; }
	fi
	_t_cmd current hostnamectl --transient status
	if [ "$current" != "$name" ]; then
		changed=1
		[ -n "$check" ] || { _long; _t_cmd _ hostnamectl --transient set-hostname "$name"; }
	fi
else
	# The running name first (only Alpine's strategy sets one, from the
	# file as it still is), then the file.
	if [ "$strategy" = alpine ] && [ "$current" != "$name" ] && [ -z "$check" ]; then
		command -v hostname >/dev/null 2>&1 || fail 'Failed to find required executable "hostname" in paths: '"$PATH"
		_t_cmd _ hostname -F /etc/hostname
	fi
	if [ "$permanent" != "$name" ]; then
		changed=1
		if [ -z "$check" ]; then
			case $strategy in
			file | alpine) _setfile /etc/hostname "$name
" ;;
			sles) _setfile /etc/HOSTNAME "$name
" ;;
			redhat)
				_c=$(awk -v n="$name" '{ l = $0; sub(/^[ \t]+/, "", l) } l ~ /^HOSTNAME/ { print "HOSTNAME=" n; f = 1; next } { print } END { if (!f) print "HOSTNAME=" n }' /etc/sysconfig/network)
				_setfile /etc/sysconfig/network "$_c
" ;;
			openrc)
				_c=$(awk -v n="$name" '{ gsub(/^[ \t]+|[ \t]+$/, "") } !d && /^hostname=/ { $0 = "hostname=\"" n "\""; d = 1 } { print }' /etc/conf.d/hostname)
				_setfile /etc/conf.d/hostname "$_c
" ;;
			esac
		fi
	fi
fi
echo "changed=${changed:-0}"
_h=$(uname -n)
_ip=$(getent hosts "$_h" 2>/dev/null | awk '{ print $1; exit }')
_fq=
[ -n "$_ip" ] && _fq=$(getent hosts "$_ip" 2>/dev/null | awk '{ for (i = 2; i <= NF; i++) if (index($i, ".")) { print $i; exit } print $2; exit }')
echo "fqdn=${_fq:-$_h}"
`

// hostnameStrategies maps use= to the script's strategy names.
var hostnameStrategies = map[string]string{
	"alpine": "alpine", "debian": "systemd", "systemd": "systemd", "redhat": "redhat",
	"openrc": "openrc", "sles": "sles", "generic": "generic", "freebsd": "freebsd",
	"macos": "darwin", "macosx": "darwin", "darwin": "darwin", "openbsd": "openbsd", "solaris": "solaris",
}

// Run sets the name.
func (hostnameModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := hostnameArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name := a.Str("name")
	script := fmt.Sprintf("%sname=%s\nstrategy=%s\ncheck=%s\n%s", sysFuncs, q(name), q(hostnameStrategies[a.Str("use")]),
		boolFlag(env.Check), hostnameScript)
	res, err := run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, _, failMsg := tailed(res.Stdout)
	if v["fail"] != "" {
		return tasks.Result{Failed: true, Msg: failMsg, Data: map[string]any{}}, nil
	}
	if res.ExitCode != 0 || v["changed"] == "" {
		return tasks.Result{Failed: true, Msg: scriptError(res), Data: map[string]any{}}, nil
	}
	fqdn := v["fqdn"]
	domain := ""
	if _, d, ok := strings.Cut(fqdn, "."); ok {
		domain = d
	}
	short, _, _ := strings.Cut(name, ".")
	r := tasks.Result{Changed: v["changed"] == "1", Data: map[string]any{"name": name, "ansible_facts": map[string]any{
		"ansible_hostname": short, "ansible_nodename": name, "ansible_fqdn": fqdn, "ansible_domain": domain}}}
	if r.Changed {
		before := v["permanent"]
		if name != v["current"] {
			before = v["current"]
		}
		r.Data["diff"] = map[string]any{"before": "hostname = " + before + "\n", "after": "hostname = " + name + "\n"}
		if env.Diff {
			r.Diff = unifiedDiff("hostname", "hostname = "+before+"\n", "hostname = "+name+"\n")
		}
	}
	return r, nil
}
