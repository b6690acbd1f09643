
_t_fail() {
	echo "failed=1"; printf 'msg=%s\n' "$*" | tr '\n' ' '; echo
	[ -z "$_t_faildetails" ] || { printf 'details=%s\n' "$_t_faildetails" | tr '\n' ' '; echo; }
	if [ -n "$_t_failpath" ]; then echo "failpath=$_t_failpath"; _t_info "$_t_failpath"; fi
	# a path the task itself created is removed again when it fails
	[ -z "$_t_rmonfail" ] || rm -f -- "$_t_rmonfail"
	exit "${_t_failrc:-0}"
}
# _t_stat PATH: one stat of PATH (a link itself, not its target) into
# $_t_smode, $_t_suid, $_t_sgid, $_t_ssize, $_t_snlink, $_t_sowner,
# $_t_sgroup and $_t_stype (all empty when it fails). PATH is kept in
# $_t_stp: with $_t_streuse set, a _t_stat of that same path reads nothing
# again (the caller knows nothing changed it since). $_t_stby says who
# read it: owns (_t_owns, which changed nothing) or info. _t_streuse is
# cleared either way.
_t_stat() {
	if [ -n "$_t_streuse" ] && [ -n "$_t_stp" ] && [ "$1" = "$_t_stp" ]; then _t_streuse=; return 0; fi
	_t_streuse= _t_stp= _t_stby=
	_t_smode= _t_suid= _t_sgid= _t_ssize= _t_snlink= _t_sowner= _t_sgroup= _t_stype= _t_stl=
	# The script's first look at the path it named (transport.Cmd.Stat),
	# while it has changed nothing: the line the shell read for it, with
	# the paths of the tasks beside it, if there is one.
	if [ -n "${__tender_sp-}" ] && [ "$1" = "$__tender_sp" ] && [ -z "${_t_changed-}" ]; then
		__tender_sp=
		case ${__tender_sf-} in
		*"
$1	"*)
			_t_stl=${__tender_sf#*"
$1	"}
			_t_stl=${_t_stl%%"
"*} ;;
		esac
	fi
	[ -n "$_t_stl" ] || _t_stl=$(stat -c '%a %u %g %s %h %U %G %F' -- "$1" 2>/dev/null) || return 1
	_t_stp=$1
	_t_ifs=$IFS; IFS=' '
	# shellcheck disable=SC2086 # stat's fields become the arguments
	set -- $_t_stl
	IFS=$_t_ifs
	_t_smode=$1 _t_suid=$2 _t_sgid=$3 _t_ssize=$4 _t_snlink=$5 _t_sowner=$6 _t_sgroup=$7
	shift 7
	_t_stype=$*
}
_t_info() { # key=value lines describing $1 (without following a link)
	_t_stat "$1" || return
	_t_stby=info
	printf 'mode=%s\nuid=%s\ngid=%s\nowner=%s\ngroup=%s\nsize=%s\nnlink=%s\nftype=%s\n' \
		"$_t_smode" "$_t_suid" "$_t_sgid" "$_t_sowner" "$_t_sgroup" "$_t_ssize" "$_t_snlink" "$_t_stype"
	! _t_seon || stat -c 'secontext=%C' -- "$1" 2>/dev/null
}
# _t_info_after PATH: _t_info, right after a _t_attrs of PATH: the stat
# its _t_owns read, when it changed nothing, is still the path's.
_t_info_after() {
	[ "$_t_stby" = owns ] && _t_streuse=1
	_t_info "$1"
}
# _t_seon: SELinux is on (libselinux's test: selinuxfs mounted read-write
# and a config). Only a boot changes it: in tender's persistent shell the
# answer is kept as a file in the shell's private directory
# ($__tender_d/se0 or se1), so later tasks test it with one stat instead
# of a PATH search and selinuxenabled.
_t_seon() {
	if [ -z "$_t_seen" ]; then
		if [ -n "${__tender_d-}" ] && [ -e "$__tender_d/se0" ]; then
			_t_seen=0
		elif [ -n "${__tender_d-}" ] && [ -e "$__tender_d/se1" ]; then
			_t_seen=1
		else
			_t_seen=0
			if command -v selinuxenabled >/dev/null 2>&1; then
				selinuxenabled && _t_seen=1
			elif [ -f /etc/selinux/config ] && awk '$3 == "selinuxfs" && $4 !~ /(^|,)ro(,|$)/ { f = 1 } END { exit !f }' /proc/mounts 2>/dev/null; then
				_t_seen=1
			fi
			[ -z "${__tender_d-}" ] || : 2>/dev/null >"$__tender_d/se$_t_seen" || :
		fi
	fi
	[ "$_t_seen" = 1 ]
}
_t_sedefault() { # the policy's default context for the path $1 ("" for none)
	_t_sd=$(matchpathcon -n -- "$1" 2>/dev/null) || _t_sd=
	case $_t_sd in *:*:*) printf '%s\n' "$_t_sd" ;; esac
}
_t_sekeep() { # before a file is renamed onto $1: the context it must have after (its own, or a new file's default)
	_t_seon || return 0
	if [ -e "$1" ] || [ -L "$1" ]; then stat -c %C -- "$1" 2>/dev/null; else _t_sedefault "$1"; fi
}
_t_seput() { # path context: after a rename, the path gets the context _t_sekeep gave (a rename keeps the new file's own)
	[ -n "$2" ] || return 0
	[ "$(stat -c %C -- "$1" 2>/dev/null)" = "$2" ] || chcon -h -- "$2" "$1" 2>/dev/null || true
}
_t_wantmode() { # the octal mode $2 (octal or symbolic) gives the path $1
	case $2 in
	*[!0-7]*)
		_wd=$(mktemp -d) || return 1
		if [ -d "$1" ]; then _wf=$_wd/d; mkdir "$_wf"; else _wf=$_wd/f; : >"$_wf"; fi
		chmod "$(stat -c %a "$1")" "$_wf" && chmod "$2" "$_wf" 2>/dev/null && stat -c %a "$_wf"
		_wr=$?; rm -rf "$_wd"; return $_wr ;;
	*) echo "$2" ;;
	esac
}
_t_se() { # path: its SELinux context to $_t_seuser:$_t_serole:$_t_setype:$_t_selevel
	[ -n "$_t_seuser$_t_serole$_t_setype$_t_selevel" ] || return 0
	# Where SELinux is off or absent the parameters are ignored, as Ansible does.
	_t_seon || return 0
	_t_ctx=$(stat -c %C -- "$1" 2>/dev/null) || return 0
	_cu=${_t_ctx%%:*}; _cx=${_t_ctx#*:}; _cr=${_cx%%:*}; _cx=${_cx#*:}; _ct=${_cx%%:*}
	case $_cx in *:*) _cl=${_cx#*:} ;; *) _cl= ;; esac
	# _default is the part of the policy's default context for the path
	# (none: the part is left as it is)
	_du= _dr= _dt= _dl=
	case "|$_t_seuser|$_t_serole|$_t_setype|$_t_selevel|" in *"|_default|"*)
		_dc=$(_t_sedefault "$1")
		if [ -n "$_dc" ]; then _du=${_dc%%:*}; _dx=${_dc#*:}; _dr=${_dx%%:*}; _dx=${_dx#*:}; _dt=${_dx%%:*}; _dl=${_dx#*:}; fi ;;
	esac
	_t_cargs= _nu=$_cu _nr=$_cr _nt=$_ct _nl=$_cl
	for _w in "u|$_t_seuser|$_cu|$_du" "r|$_t_serole|$_cr|$_dr" "t|$_t_setype|$_ct|$_dt" "l|$_t_selevel|$_cl|$_dl"; do
		_f=${_w%%|*}; _r=${_w#*|}; _v=${_r%%|*}; _r=${_r#*|}; _h=${_r%%|*}; _d=${_r#*|}
		[ "$_v" != _default ] || _v=$_d
		# a level only where the policy has levels (MLS)
		[ "$_f" != l ] || [ -n "$_cl" ] || continue
		[ -n "$_v" ] && [ "$_v" != "$_h" ] || continue
		_t_cargs="$_t_cargs -$_f $_v"
		case $_f in u) _nu=$_v ;; r) _nr=$_v ;; t) _nt=$_v ;; l) _nl=$_v ;; esac
	done
	[ -n "$_t_cargs" ] || return 0
	_t_changed=1; echo "secontext_changed=1"; echo "before_secontext=$_t_ctx"
	echo "after_secontext=$_nu:$_nr:$_nt${_cl:+:$_nl}"
	[ -n "$_t_check" ] || chcon -h $_t_cargs -- "$1" || _t_fail "chcon failed: cannot set the SELinux context of $1"
}
_t_chattr() { # path: its chattr flags to $_t_attributes ([+-=]flags)
	command -v chattr >/dev/null 2>&1 || return 0 # as Ansible: no chattr, no change
	_am='='; _aw=$_t_attributes
	case $_aw in [-+=]*) _am=${_aw%"${_aw#?}"}; _aw=${_aw#?} ;; esac
	# the flags set now ("" where lsattr cannot tell, as on /proc)
	_ac=$(lsattr -d -- "$1" 2>/dev/null) && _ac=$(printf '%s' "${_ac%% *}" | tr -d -- -) || _ac=
	case $_am in
	+) _ad=$(printf '%s' "$_aw" | tr -d -- "$_ac-") ;;
	-) _ad=$(printf '%s' "$_aw" | tr -cd -- "$_ac") ;;
	*) _ad=$(printf '%s' "$_aw" | tr -d -- "$_ac-")$(printf '%s' "$_ac" | tr -d -- "$_aw-") ;;
	esac
	[ -n "$_ad" ] || return 0
	_t_changed=1; echo "attributes_changed=1"; echo "before_attributes=$_ac"; echo "after_attributes=$_am$_aw"
	[ -z "$_t_check" ] || return 0
	_ao=$("$(command -v chattr)" "$_am$_aw" -- "$1" 2>&1) && [ -z "$_ao" ] && return 0
	_t_faildetails="Error while setting attributes: $_ao"; _t_failpath=$1
	_t_fail "chattr failed"
}
_t_attrs() { # path mode owner group: fix what differs (and the SELinux context and chattr flags)
	# Only a stat read for this very call may serve _t_info_after (or
	# one the caller vouches for with _t_streuse).
	[ -n "$_t_streuse" ] || _t_stp=
	_t_stby=
	_t_se "$1"
	[ -z "$2$3$4" ] || _t_owns "$@"
	_t_streuse=
	# last, as Ansible does: an immutable file takes no chmod after
	[ -z "$_t_attributes" ] || [ -L "$1" ] || _t_chattr "$1"
}
_t_owns() { # path mode owner group: fix the mode, owner and group that differ
	_t_failpath=$1
	# one stat: mode, owner name and id, group name and id
	_t_stat "$1"
	set -- "$1" "$2" "$3" "$4" "$_t_smode" "$_t_sowner" "$_t_suid" "$_t_sgroup" "$_t_sgid"
	_t_stby=owns
	if [ -n "$3" ] && [ "$3" != "$6" ] && [ "$3" != "$7" ]; then
		_t_changed=1 _t_stby= _t_stp=; echo "owner_changed=1"; echo "before_owner=$7"
		case $3 in *[!0-9]*) echo "after_owner=$(id -u -- "$3" 2>/dev/null)" ;; *) echo "after_owner=$3" ;; esac
		[ -n "$_t_check" ] || chown -h -- "$3" "$1" 2>/dev/null || {
			id -u -- "$3" >/dev/null 2>&1 || _t_fail "chown failed: failed to look up user $3"
			_t_fail "chown failed: [Errno 1] Operation not permitted: b'$1'"
		}
	fi
	if [ -n "$4" ] && [ "$4" != "$8" ] && [ "$4" != "$9" ]; then
		_t_changed=1 _t_stby= _t_stp=; echo "group_changed=1"; echo "before_group=$9"
		case $4 in *[!0-9]*) echo "after_group=$(awk -F: -v g="$4" '$1 == g { print $3; exit }' /etc/group)" ;; *) echo "after_group=$4" ;; esac
		[ -n "$_t_check" ] || chgrp -h -- "$4" "$1" 2>/dev/null || {
			getent group "$4" >/dev/null 2>&1 || _t_fail "chgrp failed: failed to look up group $4"
			_t_fail "chgrp failed: [Errno 1] Operation not permitted: b'$1'"
		}
	fi
	if [ -n "$2" ] && [ ! -L "$1" ]; then
		case $2 in
		*[!0-7]*) _wm=$(_t_wantmode "$1" "$2") || _t_fail "mode must be in octal or symbolic form" ;;
		*) _wm=$2 ;;
		esac
		if [ $((0$5)) -ne $((0$_wm)) ]; then
			_t_changed=1 _t_stby= _t_stp=; echo "before_mode=$5"; echo "after_mode=$_wm"
			[ -n "$_t_check" ] || chmod "$_wm" "$1" || _t_fail "chmod failed"
		fi
	fi
	_t_failpath=
}
