# _t_svc_script
export LANG=C LC_ALL=C LC_MESSAGES=C
_t_fail() { echo verdict=failed; printf 'msg=%s\n' "$(printf %s "$*" | tr '\n' ' ')"; exit "${_t_failrc:-0}"; }
# _t_bin VAR TOOL: the path of TOOL in $VAR, found in PATH and then the
# sbin directories, as command -v would find it there ("" and status 1
# for none), with no subshell.
_t_bin() {
	eval "$1="
	_t_br=$PATH:/sbin:/usr/sbin:/bin:/usr/bin
	while :; do
		_t_bd=${_t_br%%:*}
		if [ -n "$_t_bd" ] && [ -f "$_t_bd/$2" ] && [ -x "$_t_bd/$2" ]; then
			eval "$1=\$_t_bd/\$2"
			return 0
		fi
		case $_t_br in *:*) _t_br=${_t_br#*:} ;; *) return 1 ;; esac
	done
}
# _t_pid1systemd: process 1 is systemd (its name says so).
_t_pid1systemd() {
	_c=
	{ IFS= read -r _c || :; } </proc/1/comm 2>/dev/null
	case $_c in *systemd*) return 0 ;; esac
	return 1
}
# _t_lower TEXT: TEXT with A-Z made a-z (as tr 'A-Z' 'a-z'), in $_lc,
# without a process.
_t_lower() {
	_lc= _r=$1
	while [ -n "$_r" ]; do
		_c=${_r%"${_r#?}"} _r=${_r#?}
		case $_c in
		[A-Z])
			case $_c in
			A) _c=a ;; B) _c=b ;; C) _c=c ;; D) _c=d ;; E) _c=e ;; F) _c=f ;; G) _c=g ;; H) _c=h ;; I) _c=i ;;
			J) _c=j ;; K) _c=k ;; L) _c=l ;; M) _c=m ;; N) _c=n ;; O) _c=o ;; P) _c=p ;; Q) _c=q ;; R) _c=r ;;
			S) _c=s ;; T) _c=t ;; U) _c=u ;; V) _c=v ;; W) _c=w ;; X) _c=x ;; Y) _c=y ;; Z) _c=z ;;
			esac ;;
		esac
		_lc=$_lc$_c
	done
}
# _t_strip TEXT WORD: TEXT without each occurrence of WORD, taken left to
# right as sed's s/WORD//g takes them, in $_st.
_t_strip() {
	_st= _r=$1
	[ -n "$2" ] || { _st=$1; return; }
	while :; do
		case $_r in *"$2"*) ;; *) break ;; esac
		_st=$_st${_r%%"$2"*} _r=${_r#*"$2"}
	done
	_st=$_st$_r
}
# _t_tmp makes the scratch directory ($tmp) the first time a branch
# needs one: a task that finds nothing to do where systemd answers makes
# none.
tmp=
_t_tmp() { [ -n "$tmp" ] || _t_tmpd tmp; }
initscript=
[ -f "/etc/init.d/$name" ] && initscript=/etc/init.d/$name
_t_bin systemctl systemctl
svccmd= enablecmd=
if [ -z "$mgr" ]; then
	if [ -n "$systemctl" ] && { [ -d /run/systemd/system ] || [ -d /dev/.run/systemd ] || [ -d /dev/.systemd ] || _t_pid1systemd; }; then
		mgr=systemd
	elif _t_bin _t_x rc-service; then mgr=openrc
	else mgr=sysv
	fi
fi
case $mgr in
systemd) svccmd=$systemctl enablecmd=$systemctl ;;
openrc) _t_bin svccmd rc-service; _t_bin enablecmd rc-update ;;
*)
	if [ -n "$initscript" ]; then
		_t_bin enablecmd update-rc.d || _t_bin enablecmd insserv || _t_bin enablecmd chkconfig
	fi
	[ -n "$enablecmd" ] || _t_fail "Could not find the requested service $name: host"
	_t_bin svccmd service ;;
esac
[ -n "$svccmd" ] || [ -n "$initscript" ] || _t_fail "cannot find 'service' binary or init script for service,  possible typo in service name?, aborting"
echo "mgr=$mgr"

# _t_exec OUTFILE CMD...: runs a command detached from this session
# (setsid), so that a daemon it starts outlives the connection; not with
# $_t_attached set (a status query, which starts nothing).
_t_exec() {
	_o=$1; shift
	if [ -z "${_t_attached-}" ] && command -v setsid >/dev/null; then setsid "$@" >"$_o.out" 2>"$_o.err" </dev/null
	else "$@" >"$_o.out" 2>"$_o.err" </dev/null; fi
}

# Enabled at boot.
enchg=
if [ -n "$enabled" ]; then
	want=; [ "$enabled" = yes ] && want=1
	case $enablecmd in
	*systemctl)
		cur=; "$systemctl" is-enabled --quiet -- "$name" 2>/dev/null && cur=1
		if [ "$cur" != "$want" ]; then
			enchg=1; echo enabled_changed=1
			if [ -z "$_t_check" ]; then
				_t_tmp
				if [ -n "$want" ]; then act=enable; else act=disable; fi
				"$systemctl" "$act" -- "$name" >"$tmp/eo" 2>"$tmp/ee" || _t_fail "Error when trying to $act $name: rc=$? $(cat "$tmp/ee" "$tmp/eo")"
			fi
		fi ;;
	*rc-update)
		cur=
		"$enablecmd" show 2>/dev/null | while IFS='|' read -r s lv; do
			s=$(echo $s)
			[ "$s" = "$name" ] || continue
			for l in $lv; do [ "$l" = "$runlevel" ] && echo hit; done
		done | grep -q hit && cur=1
		if [ "$cur" != "$want" ]; then
			enchg=1; echo enabled_changed=1
			if [ -z "$_t_check" ]; then
				_t_tmp
				if [ -n "$want" ]; then act=add; else act=delete; fi
				"$enablecmd" "$act" "$name" "$runlevel" >"$tmp/eo" 2>"$tmp/ee" || _t_fail "Error when trying to $act $name: rc=$? $(cat "$tmp/ee" "$tmp/eo")"
			fi
		fi ;;
	*update-rc.d)
		cur=; ls /etc/rc?.d/S??"$name" >/dev/null 2>&1 && cur=1
		if [ "$cur" != "$want" ]; then
			enchg=1; echo enabled_changed=1
			if [ -z "$_t_check" ]; then
				_t_tmp
				if [ -n "$want" ]; then
					act=enable
					if ! ls /etc/rc?.d/K??"$name" >/dev/null 2>&1; then
						"$enablecmd" "$name" defaults >"$tmp/eo" 2>"$tmp/ee" || _t_fail "$(cat "$tmp/ee")"
					fi
				else act=disable; fi
				"$enablecmd" "$name" "$act" >"$tmp/eo" 2>"$tmp/ee" || _t_fail "$(cat "$tmp/ee")"
			fi
		fi ;;
	*chkconfig)
		_t_tmp
		if [ -n "$want" ]; then act=on; else act=off; fi
		out=$("$enablecmd" --list "$name" 2>"$tmp/ee")
		if grep -q "chkconfig --add $name" "$tmp/ee"; then
			"$enablecmd" --add "$name" >/dev/null 2>&1
			out=$("$enablecmd" --list "$name" 2>/dev/null)
		fi
		case $out in *"$name"*) ;; *) _t_fail "service $name does not support chkconfig" ;; esac
		case $out in
		*"3:$act"*"5:$act"*) ;;
		*)
			enchg=1; echo enabled_changed=1
			if [ -z "$_t_check" ]; then
				"$enablecmd" "$name" "$act" >"$tmp/eo" 2>"$tmp/ee" || _t_fail "Error when trying to $act $name: rc=$? $(cat "$tmp/ee" "$tmp/eo")"
			fi ;;
		esac ;;
	*insserv)
		_t_tmp
		if [ -n "$want" ]; then "$enablecmd" -n -v "$name" 2>"$tmp/ee" >/dev/null; grep -q 'enable service' "$tmp/ee"
		else "$enablecmd" -n -r -v "$name" 2>"$tmp/ee" >/dev/null; grep -q 'remove service' "$tmp/ee"; fi && {
			enchg=1; echo enabled_changed=1
			if [ -z "$_t_check" ]; then
				if [ -n "$want" ]; then "$enablecmd" "$name"; else "$enablecmd" -r "$name"; fi >"$tmp/eo" 2>"$tmp/ee"
				_t_rc=$?
				[ "$_t_rc" -eq 0 ] && [ ! -s "$tmp/ee" ] || _t_fail "Failed to change service $name. rc: $_t_rc, out: $(cat "$tmp/eo"), err: $(cat "$tmp/ee")"
			fi
		} ;;
	esac
fi
# Check mode stops here as Ansible's does: always after insserv, never
# after update-rc.d, after the others when the enabled state would change.
if [ -n "$_t_check" ] && [ -n "$enabled" ]; then
	case $enablecmd in
	*update-rc.d) ;;
	*insserv) echo verdict=checkenable; exit 0 ;;
	*) [ -n "$enchg" ] && { echo verdict=checkenable; exit 0; } ;;
	esac
fi
[ -n "$state" ] || { echo verdict=done; echo rc=0; exit 0; }

# Debian's service (init-system-helpers' /usr/sbin/service), where
# systemd is not running, runs an init script from /, under env -i with
# the locale variables, PATH and TERM alone; _t_svcrun does the same
# itself, sparing the host service's shell and its two basename. Not
# where service would do more: hand over to systemd, update OpenRC's
# started links, or read one of the arguments as its own option.
dsvc=
case $svccmd in
/usr/sbin/service | /sbin/service)
	[ -n "$initscript" ] && [ -x "$initscript" ] && [ -f /var/lib/dpkg/info/init-system-helpers.list ] &&
		[ ! -d /run/systemd/system ] && [ ! -d /run/openrc/started ] && dsvc=1
	# service reads an option anywhere in its arguments (split as it
	# splits them, without globbing).
	set -f
	for _w in $name $args; do
		case $_w in -h | --h* | -V | --version | --status-all | --full-restart) dsvc= ;; esac
	done
	set +f ;;
esac
# _t_svcrun OUT ACTION: the service's control command for ACTION, its
# output where _t_exec puts it.
_t_svcrun() {
	_t_ro=$1; shift
	case $svccmd in
	*systemctl) _t_exec "$_t_ro" "$svccmd" "$1" "$name" $args ;;
	"") _t_exec "$_t_ro" "$initscript" "$1" $args ;;
	*)
		if [ -n "$dsvc" ]; then
			(cd / && _t_exec "$_t_ro" env -i LANG="${LANG-}" LANGUAGE="${LANGUAGE-}" LC_CTYPE="${LC_CTYPE-}" \
				LC_NUMERIC="${LC_NUMERIC-}" LC_TIME="${LC_TIME-}" LC_COLLATE="${LC_COLLATE-}" LC_MONETARY="${LC_MONETARY-}" \
				LC_MESSAGES="${LC_MESSAGES-}" LC_PAPER="${LC_PAPER-}" LC_NAME="${LC_NAME-}" LC_ADDRESS="${LC_ADDRESS-}" \
				LC_TELEPHONE="${LC_TELEPHONE-}" LC_MEASUREMENT="${LC_MEASUREMENT-}" LC_IDENTIFICATION="${LC_IDENTIFICATION-}" \
				LC_ALL="${LC_ALL-}" PATH="$PATH" TERM="${TERM-}" "$initscript" "$1" $args)
		else _t_exec "$_t_ro" "$svccmd" "$name" "$1" $args; fi ;;
	esac
}
# _t_ctl ACTION: the service's control command for ACTION, its output in
# $tmp/c.out and $tmp/c.err.
_t_ctl() {
	_t_tmp
	_t_svcrun "$tmp/c" "$@"
}

# Running or not.
running= crashed=
if [ -n "$pattern" ]; then
	running=0
	_t_tmp
	ps auxww 2>/dev/null >"$tmp/ps" || ps -ef >"$tmp/ps" 2>/dev/null || ps >"$tmp/ps"
	grep -F -- "$pattern" "$tmp/ps" | grep -v -e _t_svc_script -e 'pattern=' | grep -q . && running=1
elif [ "$mgr" = systemd ]; then
	st=$("$systemctl" show "$name" -p ActiveState --value 2>/dev/null)
	case $st in active|activating|reloading|deactivating) running=1 ;; *) running=0 ;; esac
else
	# The status's output goes beside the frame's own files where the
	# shell keeps them: no directory to make for a task that changes
	# nothing. OpenRC's (its stderr is read) and under become: in $tmp.
	_t_attached=1
	case $svccmd in
	*rc-service) _t_ctl status; rc=$?; so=$tmp/c ;;
	*)
		so=
		if [ -n "${__tender_w-}" ] && [ -z "$tmp" ]; then
			so=$__tender_w.s
			_t_svcrun "$so" status 2>/dev/null; rc=$?
			# Not written (the directory gone): asked again in $tmp.
			[ -f "$so.out" ] || so=
		fi
		[ -n "$so" ] || { _t_ctl status; rc=$?; so=$tmp/c; } ;;
	esac
	_t_attached=
	case $svccmd in
	*rc-service) # OpenRC says "started" on stdout, "crashed" on stderr
		grep -q started "$so.out" && running=1 || running=0
		grep -q crashed "$tmp/c.err" && crashed=1 ;;
	esac
	[ -z "$running" ] && case $rc in 1|2|3|4|69) running=0 ;; esac
	# One line of output or none: what it says, lowercased, the name
	# taken out (read without a process: a status line is short).
	_n=0 _out= _l=
	while IFS= read -r _l; do _n=$((_n + 1)) _out="$_out$_l
"; [ "$_n" -le 1 ] || break; done <"$so.out"
	if [ -z "$running" ] && [ "$_n" -le 1 ]; then
		if [ $((${#_out} + ${#_l})) -le 4096 ]; then
			_t_lower "$_out$_l"; _lo=$_lc
			_t_lower "$name"
			_t_strip "$_lo" "$_lc"
			clean=$_st
			# as $(...) would: no trailing newlines
			while [ "${clean%"
"}" != "$clean" ]; do clean=${clean%"
"}; done
		else
			clean=$(tr 'A-Z' 'a-z' <"$so.out" | sed "s/$(printf %s "$name" | tr 'A-Z' 'a-z' | sed 's/[]\/$*.^[]/\\&/g')//g")
		fi
		case $clean in
		*stop*) running=0 ;;
		*run*) case $clean in *"not "*) running=0 ;; *) running=1 ;; esac ;;
		*start*) case $clean in *"not "*) ;; *) running=1 ;; esac ;;
		*'could not access pid file'*|*'is dead and pid file exists'*|*'dead but subsys locked'*|*'dead but pid file exists'*) running=0 ;;
		esac
	fi
	[ -z "$running" ] && [ "$rc" -eq 0 ] && running=1
fi
echo "running=$running"
[ -n "$running" ] || _t_fail "failed determining service state, possible typo of service name?"

change= act=
case $state in
started) [ "$running" = 0 ] && change=1 act=start ;;
stopped) [ "$running" = 1 ] && change=1 act=stop ;;
reloaded) change=1; if [ "$running" = 1 ]; then act=reload; else act=start; fi ;;
restarted) change=1 act=restart ;;
esac
echo "svc_change=$change"
if [ -z "$change" ]; then echo verdict=done; echo rc=0; exit 0; fi
if [ -n "$_t_check" ]; then echo verdict=check; exit 0; fi
# OpenRC starts a crashed service only once zap has marked it stopped.
[ "$act" = start ] && [ -n "$crashed" ] && _t_tmp && _t_exec "$tmp/z" "$svccmd" "$name" zap
if [ "$act" = restart ] && [ "$mgr" != openrc ] && [ "$mgr" != systemd ]; then
	_t_ctl stop; rc1=$?; cat "$tmp/c.out" >"$tmp/o1"; cat "$tmp/c.err" >"$tmp/e1"
	[ -n "$sleep" ] && sleep "$sleep"
	_t_ctl start; rc2=$?
	if [ $rc1 -ne 0 ] && [ $rc2 -eq 0 ]; then rc=0
	else rc=$((rc1 + rc2)); cat "$tmp/o1" "$tmp/c.out" >"$tmp/o2"; cat "$tmp/e1" "$tmp/c.err" >"$tmp/e2"; mv "$tmp/o2" "$tmp/c.out"; mv "$tmp/e2" "$tmp/c.err"; fi
else
	_t_ctl "$act"; rc=$?
fi
echo verdict=done; echo "rc=$rc"
if [ "$rc" -ne 0 ]; then
	echo --output--
	if [ -s "$tmp/c.err" ]; then cat "$tmp/c.err"; else cat "$tmp/c.out"; fi
fi
[ "$rc" -eq 0 ] || exit "${_t_failrc:-0}"
