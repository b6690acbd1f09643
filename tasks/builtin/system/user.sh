# The secrets are the script's standard input: the password hash on its
# first line, then the ssh key's passphrase, each when given.
_pw=
_pp=
if [ -n "$pw_set" ]; then IFS= read -r _pw || :; fi
if [ -n "$pp_set" ]; then _pp=$(cat); fi
fail() { echo "fail=$1"; exit "${_t_failrc:-0}"; }
_t_in() { case ",$2," in *",$1,"*) return 0 ;; esac; return 1; }
# _t_pwentv NAME sets $_t_pe to NAME's passwd entry (_t_entby). _t_pwent
# prints it.
_t_pwentv() { _t_entby passwd "$1"; _t_pe=$_t_eb; }
_t_pwent() {
	_t_pwentv "$1"
	[ -z "$_t_pe" ] || printf '%s\n' "$_t_pe"
}
# _t_split LINE: the colon-separated fields of LINE in $_f1 to $_f9, as
# cut -d: -fN gives them, without a process per field.
_t_split() {
	_f1= _f2= _f3= _f4= _f5= _f6= _f7= _f8= _f9=
	_t_r=$1
	for _t_n in 1 2 3 4 5 6 7 8 9; do
		eval "_f$_t_n=\${_t_r%%:*}"
		case $_t_r in *:*) _t_r=${_t_r#*:} ;; *) break ;; esac
	done
}
_t_members() {
	{ getent group 2>/dev/null || cat /etc/group; } |
		awk -F: -v n="$1" -v gid="$2" '$3 != gid { k = split($4, m, ","); for (i = 1; i <= k; i++) if (m[i] == n) { o = o s $1; s = ","; break } } END { print o }'
}
_t_mkhome() {
	_t_mk
	_s=${skel:-/etc/skel}
	if [ -e "$_s" ]; then
		mkdir -p -- "$(dirname -- "$1")" && cp -a -- "$_s" "$1"
	else
		mkdir -p -- "$1"
	fi 2>>"$_t_d/e" || fail "cannot create home directory $1"
	_um=$(awk '$1 == "UMASK" && NF == 2 && $2 ~ /^[0-9]+$/ { u = $2 } END { print u }' /etc/login.defs 2>/dev/null)
	[ -n "$_um" ] && chmod "$(printf '%o' $((0777 & ~0$_um)))" -- "$1"
	return 0
}
# _t_setpw sets the hash ($1, $_pw by default) with chpasswd -e, which
# reads it on its stdin (printf is a builtin: no command line holds it).
_t_setpw() { _t_runin "$name:${1-$_pw}" chpasswd -e || fail_rc; }
# _t_unbang is $1 without its leading "!"s (a lock), in $_v.
_t_unbang() {
	_v=$1
	while [ "${_v#!}" != "$_v" ]; do _v=${_v#!}; done
}
# _t_fail_msg fails with rc 1 and the message $1, as Ansible's user module
# reports what it could not do itself.
_t_fail_msg() {
	_t_mk
	printf '%s' "$1" >"$_t_d/e"
	rc=1
	fail_rc
}
# _t_post does, for a user that now exists, what Ansible does after
# creating or changing it: the ssh key, then the password's ages.
_t_post() {
	[ -n "$sshkey$exp_min$exp_max" ] || return 0
	_t_fresh
	_t_split "$_e"
	_uid=$_f3 _gid=$_f4 _home=$_f6
	[ -z "$sshkey" ] || _t_sshkey
	[ -z "$exp_min$exp_max" ] || _t_chage
}
_t_sshkey() {
	case $ssh_file in
	/*) _kf=$ssh_file ;;
	*)
		[ -e "$_home" ] || [ -n "$check" ] || _t_fail_msg "User $name home directory does not exist"
		_kf=$_home/$ssh_file
		;;
	esac
	[ -n "$ssh_comment_set" ] || ssh_comment="ansible-generated on $(uname -n)"
	_kd=$(dirname -- "$_kf")
	_gen=1
	_ow=
	if [ ! -e "$_kd" ]; then
		if [ -n "$check" ]; then
			changed=1
			_gen=
		else
			_m=$(mkdir -m 0700 -- "$_kd" 2>&1) || _t_fail_msg "Failed to create $_kd: ${_m#mkdir: }"
			chown "$_uid:$_gid" -- "$_kd"
		fi
	fi
	if [ -n "$_gen" ] && [ -e "$_kf" ]; then
		if [ -n "$force" ]; then _ow=1; else _gen=; fi
	fi
	if [ -n "$_gen" ]; then
		changed=1
		if [ -z "$check" ]; then
			set -- ssh-keygen -t "$ssh_type"
			[ "$ssh_bits" -gt 0 ] && set -- "$@" -b "$ssh_bits"
			set -- "$@" -C "$ssh_comment" -f "$_kf"
			[ -n "$pp_set" ] || set -- "$@" -N ''
			_t_mk
			: >"$_t_d/e"
			# ssh-keygen reads the answer to "Overwrite (y/n)?" and the
			# passphrase (twice) on its stdin when it has no terminal.
			{
				[ -z "$_ow" ] || echo y
				[ -z "$pp_set" ] || printf '%s\n%s\n' "$_pp" "$_pp"
			} | "$@" >>"$_t_d/o" 2>>"$_t_d/e"
			rc=$?
			[ $rc -eq 0 ] || fail_rc
			chown "$_uid:$_gid" -- "$_kf" "$_kf.pub"
		fi
	fi
	_fp=
	if [ -e "$_kf" ]; then
		_fp=$(ssh-keygen -l -f "$_kf" 2>/dev/null) || _fp=$(ssh-keygen -l -f "$_kf" 2>&1 >/dev/null)
	fi
	printf 'ssh_key_file=%s\n' "$_kf"
	printf 'ssh_fingerprint=%s\n' "$(printf '%s' "$_fp" | tr '\n' ' ' | sed 's/ *$//')"
	if [ -r "$_kf.pub" ]; then
		printf 'ssh_public_key=%s\n' "$(tr '\n' ' ' <"$_kf.pub" | sed 's/ *$//')"
	fi
}
# _t_shadow NAME sets _s to NAME's line of /etc/shadow, empty when it has
# none or cannot be read: the shell reads the first 256 lines itself (no
# program started for the usual short file), awk the rest.
_t_shadow() {
	_s= _i=0
	[ -r /etc/shadow ] || return 0
	{
		while [ $_i -lt 256 ] && { IFS= read -r _l || [ -n "$_l" ]; }; do
			case $_l in "$1":*) _s=$_l; return 0 ;; esac
			_i=$((_i + 1)) _l=
		done
		[ $_i -lt 256 ] || _s=$(awk -F: -v n="$1" '$1 == n { print; exit }')
	} </etc/shadow 2>/dev/null
}
_t_chage() {
	_t_shadow "$name"
	[ -n "$_s" ] || return 0
	_t_split "$_s"
	_smin=$_f4 _smax=$_f5
	set --
	[ -n "$exp_min" ] && [ "$exp_min" != "${_smin:--1}" ] && set -- "$@" -m "$exp_min"
	[ -n "$exp_max" ] && [ "$exp_max" != "${_smax:--1}" ] && set -- "$@" -M "$exp_max"
	[ $# -gt 0 ] || return 0
	changed=1
	[ -z "$check" ] || return 0
	_t_mk
	: >"$_t_d/e"
	_t_run chage "$@" "$name" || fail_rc
}
fail_rc() { echo "rc=$rc"; echo fail=rc; _t_tail; exit "${_t_failrc:-0}"; }
# _t_fresh: the user's entry in $_e, read again after a change, else
# the one read at the start.
_t_fresh() {
	if [ -n "$changed" ] || [ -z "${ent-}" ]; then _t_pwentv "$name"; _e=$_t_pe; else _e=$ent; fi
}
_t_report() {
	_t_fresh
	if [ -n "$_e" ]; then
		_t_split "$_e"
		printf 'uid=%s\ngid=%s\nhome=%s\nshell=%s\ngecos=%s\n' "$_f3" "$_f4" "$_f6" "$_f7" "$_f5"
	fi
	_t_tail
	exit 0
}

if command -v useradd >/dev/null 2>&1; then kind=shadow
elif command -v adduser >/dev/null 2>&1; then kind=busybox
else fail 'Failed to find required executable "useradd" in paths: '"$PATH"
fi
_t_pwentv "$name"
ent=$_t_pe

if [ "$state" = absent ]; then
	[ -n "$ent" ] || { echo changed=0; exit 0; }
	echo changed=1
	[ -z "$check" ] || exit 0
	if [ $kind = shadow ]; then
		set -- userdel
		[ -n "$force" ] && set -- "$@" -f
		[ -n "$remove" ] && set -- "$@" -r
		_t_run "$@" "$name"
	else
		set -- deluser "$name"
		[ -n "$remove" ] && set -- "$@" --remove-home
		_t_run "$@"
	fi
	echo "rc=$rc"
	[ $rc -eq 0 ] || echo fail=rc
	_t_tail
	[ $rc -eq 0 ] || exit "${_t_failrc:-0}"
	exit 0
fi

if [ -z "$ent" ]; then
	echo changed=1; echo created=1
	[ -z "$check" ] || exit 0
	[ -z "$group" ] || _t_ent group "$group" >/dev/null || fail "Group $group does not exist"
	IFS=,
	for g in $glist; do _t_ent group "$g" >/dev/null || fail "Group $g does not exist"; done
	unset IFS
	if [ $kind = shadow ]; then
		set -- useradd
		[ -n "$uid" ] && { set -- "$@" -u "$uid"; [ -n "$nonuniq" ] && set -- "$@" -o; }
		if [ -n "$group" ]; then set -- "$@" -g "$group"
		elif _t_ent group "$name" >/dev/null; then set -- "$@" -N
		fi
		[ -n "$glist" ] && set -- "$@" -G "$glist"
		[ -n "$comment_set" ] && set -- "$@" -c "$comment"
		parents=
		if [ -n "$home_set" ]; then
			if [ -n "$create_home" ] && [ ! -d "$(dirname -- "$home")" ]; then _t_mkhome "$home"; parents=1; fi
			set -- "$@" -d "$home"
		fi
		[ -n "$shell_set" ] && set -- "$@" -s "$shell"
		[ -n "$expires_set" ] && set -- "$@" -e "$expires_date"
		[ -n "$seuser_set" ] && set -- "$@" -Z "$seuser"
		if [ -n "$create_home" ]; then
			set -- "$@" -m
			[ -n "$skel" ] && set -- "$@" -k "$skel"
			[ -n "$umask_set" ] && set -- "$@" -K "UMASK=$umask"
		else
			set -- "$@" -M
		fi
		[ -n "$system" ] && set -- "$@" -r
		_t_run "$@" "$name" || fail_rc
		if [ -n "$pw_set" ]; then
			if [ "$lock" = 1 ]; then _t_setpw "!$_pw"; else _t_setpw; fi
		fi
		if [ -n "$parents" ]; then
			_e=$(_t_pwent "$name")
			chown -R "$(printf '%s\n' "$_e" | cut -d: -f3):$(printf '%s\n' "$_e" | cut -d: -f4)" -- "$home"
		fi
	else
		set -- adduser -D
		[ -n "$uid" ] && set -- "$@" -u "$uid"
		[ -n "$group" ] && set -- "$@" -G "$group"
		[ -n "$comment_set" ] && set -- "$@" -g "$comment"
		[ -n "$home_set" ] && set -- "$@" -h "$home"
		[ -n "$shell_set" ] && set -- "$@" -s "$shell"
		[ -n "$create_home" ] || set -- "$@" -H
		[ -n "$skel" ] && set -- "$@" -k "$skel"
		[ -n "$system" ] && set -- "$@" -S
		_t_run "$@" "$name" || fail_rc
		[ -z "$pw_set" ] || _t_setpw
		_gid=$(_t_pwent "$name" | cut -d: -f4)
		IFS=,
		for g in $glist; do
			[ "$(_t_ent group "$g" | cut -d: -f3)" = "$_gid" ] && continue
			_t_run adduser "$name" "$g" || fail_rc
		done
		unset IFS
	fi
	echo "rc=$rc"
	_t_post
	_t_report
fi

# The user exists: change what differs.
_t_split "$ent"
cuid=$_f3 cgid=$_f4 cgecos=$_f5 chome=$_f6 cshell=$_f7 chash=$_f2
cexp=
# /etc/shadow only when the task asks about the password, its lock or
# the account's expiry (the shell reads it a byte at a time)
if [ ${#chash} -le 1 ] && [ -n "$pw_set$expires_set$lock" ]; then
	_t_shadow "$name"
	_t_split "$_s"
	chash=$_f2 cexp=$_f8
fi
changed=
pwdiff=
if [ -n "$pw_set" ] && [ "$update" = always ]; then
	if [ $kind = shadow ]; then
		_t_unbang "$chash"
		_c=$_v
		_t_unbang "$_pw"
		[ "$_c" = "$_v" ] || pwdiff=1
	else
		[ "$chash" = "$_pw" ] || pwdiff=1
	fi
fi
if [ $kind = shadow ]; then
	set --
	[ -n "$uid" ] && [ "$uid" != "$cuid" ] && { set -- "$@" -u "$uid"; [ -n "$nonuniq" ] && set -- "$@" -o; }
	if [ -n "$group" ]; then
		_g=$(_t_ent group "$group") || fail "Group $group does not exist"
		_ggid=$(printf '%s\n' "$_g" | cut -d: -f3)
		[ "$_ggid" = "$cgid" ] || set -- "$@" -g "$_ggid"
	fi
	if [ -n "$groups_set" ]; then
		cur=$(_t_members "$name" -1)
		if [ -z "$glist" ]; then
			[ -n "$cur" ] && [ -z "$append" ] && set -- "$@" -G ''
		else
			IFS=,
			need=
			for g in $glist; do
				_t_ent group "$g" >/dev/null || fail "Group $g does not exist"
				_t_in "$g" "$cur" || need=1
			done
			if [ -z "$append" ]; then
				for g in $cur; do _t_in "$g" "$glist" || need=1; done
			fi
			unset IFS
			if [ -n "$need" ]; then
				[ -n "$append" ] && set -- "$@" -a
				set -- "$@" -G "$glist"
			fi
		fi
	fi
	[ -n "$comment_set" ] && [ "$comment" != "$cgecos" ] && set -- "$@" -c "$comment"
	[ -n "$home_set" ] && [ "$home" != "$chome" ] && { set -- "$@" -d "$home"; [ -n "$move_home" ] && set -- "$@" -m; }
	[ -n "$shell_set" ] && [ "$shell" != "$cshell" ] && set -- "$@" -s "$shell"
	if [ -n "$expires_set" ]; then
		if [ -z "$expires_date" ]; then
			[ -n "$cexp" ] && set -- "$@" -e ''
		elif [ "$cexp" != "$expires_days" ]; then
			set -- "$@" -e "$expires_date"
		fi
	fi
	# Lock or unlock, unless a new hash (locked or not) is set below.
	if [ -z "$pwdiff" ]; then
		case $chash in
		!*) [ "$lock" = 0 ] && set -- "$@" -U ;;
		*) [ "$lock" = 1 ] && set -- "$@" -L ;;
		esac
	fi
	if [ $# -gt 0 ]; then
		changed=1
		[ -n "$check" ] || _t_run usermod "$@" "$name" || fail_rc
	fi
else
	if [ -n "$glist" ]; then
		cur=$(_t_members "$name" "$cgid")
		IFS=,
		for g in $glist; do
			_g=$(_t_ent group "$g") || fail "Group $g does not exist"
			[ "$(printf '%s\n' "$_g" | cut -d: -f3)" = "$cgid" ] && continue
			_t_in "$g" "$cur" && continue
			changed=1
			[ -n "$check" ] || _t_run adduser "$name" "$g" || fail_rc
		done
		if [ -z "$append" ]; then
			for g in $cur; do
				_t_in "$g" "$glist" && continue
				changed=1
				[ -n "$check" ] || _t_run delgroup "$name" "$g" || fail_rc
			done
		fi
		unset IFS
	fi
fi
if [ -n "$pwdiff" ]; then
	changed=1
	if [ -z "$check" ]; then
		if [ "$lock" = 1 ]; then _t_setpw "!$_pw"; else _t_setpw; fi
	fi
fi
if [ -z "$home_set" ]; then
	_t_fresh
	_t_split "$_e"
	home=$_f6
fi
if [ -n "$create_home" ] && [ ! -e "$home" ]; then
	changed=1
	if [ -z "$check" ]; then
		_t_mkhome "$home"
		_e=$(_t_pwent "$name")
		chown -R "$(printf '%s\n' "$_e" | cut -d: -f3):$(printf '%s\n' "$_e" | cut -d: -f4)" -- "$home"
	fi
fi
_t_post
echo "changed=${changed:-0}"
_t_report
