
fail() { _t_mk; printf '%s' "$1" >"$_t_d/e"; _t_failed; }
_t_failed() { _t_mk; : >"$_t_d/o"; echo fail=1; _t_tail; exit 0; }
_t_cmd() { # _t_cmd VAR command...: VAR=its output, or fail as Ansible's "Command failed"
	_t_mk
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
		debian | ubuntu | linuxmint | kali | parrot | raspbian | devuan | deepin | uos | kylin | cumulus-linux | linaro) strategy='file' ;;
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
		_t_mk
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
	# read again only after the permanent name changed (which may
	# change it): else it is what was read above
	[ -z "$changed" ] || [ -n "$check" ] || _t_cmd current hostnamectl --transient status
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
# The FQDN as Python's socket.getfqdn() finds it: the node name's
# address, then the first name of that address's with a dot, else its
# first name. getent's first line, split by the shell.
_h=
{ IFS= read -r _h || :; } </proc/sys/kernel/hostname 2>/dev/null
[ -n "$_h" ] || _h=$(uname -n)
# _t_words TEXT: of TEXT's first line split at blanks, the first word in
# $_w1, and in $_fq the first of the others with a dot, else the second
# ("" for none).
_t_words() {
	_l=${1%%
*}
	set -f
	# shellcheck disable=SC2086 # the line is split into its fields
	set -- $_l
	set +f
	_w1=${1-} _fq=
	[ $# -ge 2 ] || return 0
	shift
	_fq=$1
	for _x; do case $_x in *.*) _fq=$_x; break ;; esac; done
}
_ip= _fq=
_t_words "$(getent hosts "$_h" 2>/dev/null)"; _ip=$_w1
[ -n "$_ip" ] && _t_words "$(getent hosts "$_ip" 2>/dev/null)"
[ -n "$_ip" ] || _fq=
echo "fqdn=${_fq:-$_h}"
