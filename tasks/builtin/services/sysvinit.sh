# _t_sysvinit_script
_t_tmpd _t_d
[ -e "$script" ] || { printf '\nmissing=1\n'; exit 0; }
chk=$(PATH=$_t_optdirs:$PATH:/sbin:/usr/sbin:/usr/local/sbin command -v chkconfig 2>/dev/null)
urc=$(PATH=$_t_optdirs:$PATH:/sbin:/usr/sbin:/usr/local/sbin command -v update-rc.d 2>/dev/null)
svc=$(PATH=$_t_optdirs:$PATH:/sbin:/usr/sbin:/usr/local/sbin command -v service 2>/dev/null)
_t_enabled() { # runlevel: is the service started in it ("?" for any)
	# $1 is a runlevel (sysvinit.go checks it) or ?: a pattern here
	if [ -d /etc/rc0.d/ ]; then set -- /etc/rc$1.d/S??"$name"; else set -- /etc/init.d/rc$1.d/S??"$name"; fi
	[ -e "$1" ] || [ -L "$1" ]
}
_t_ps() { # text: a line of ps auxww holds it
	_t_psbin=$(_t_bin ps) || { printf '\nnops=1\npath=%s\n' "$PATH:/sbin:/usr/sbin:/usr/local/sbin"; exit 0; }
	"$_t_psbin" auxww >"$_t_d/ps" 2>/dev/null || return 1
	grep -v _t_sysvinit_script "$_t_d/ps" | grep -qF -- "$1"
}
# the output of the last command, which Ansible reports for a change of
# enabled that ran nothing
lrc=0; : >"$_t_d/lo"; : >"$_t_d/le"

# Running or not.
running=0 worked=
if [ -n "$pattern" ]; then
	_t_ps "$pattern" && running=1 worked=1
else
	if [ -n "$svc" ]; then "$svc" "$name" status >"$_t_d/lo" 2>"$_t_d/le" </dev/null
	else "$script" status >"$_t_d/lo" 2>"$_t_d/le" </dev/null; fi
	lrc=$?
	if [ "$name" = iptables ] && grep -q ACCEPT "$_t_d/lo"; then running=1 worked=1; fi
	if [ -z "$worked" ] && [ "$(tr -cd '\n' <"$_t_d/lo" | wc -c)" -le 1 ]; then
		clean=$(tr '[:upper:]' '[:lower:]' <"$_t_d/lo" | _N=$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]') awk '
			{ s = (NR > 1 ? s "\n" : "") $0 }
			END {
				n = ENVIRON["_N"]; t = ""
				if (n != "") while ((i = index(s, n)) > 0) { t = t substr(s, 1, i - 1); s = substr(s, i + length(n)) }
				printf "%s|", t s
			}')
		case $clean in
		*stop*|*"is dead "*|*"dead but "*|*"could not access pid file"*|*inactive*) worked=1 ;;
		*"not "*) ;;
		*run*|*start*|*active*) running=1 worked=1 ;;
		esac
	fi
	if [ -z "$worked" ]; then
		case $lrc in 1|2|3|4|69) worked=1 ;; esac
	fi
	if [ -z "$worked" ]; then
		if [ "$lrc" = 0 ]; then running=1 worked=1
		elif _t_ps "$name"; then running=1 worked=1; printf '\nwarn_ps=1\n'
		fi
	fi
fi
printf '\nrunning=%s\nworked=%s\n' "$running" "$worked"

# Enabled at boot.
want=; [ "$enabled" = yes ] && want=1
enchg=
if [ -n "$enabled" ]; then
	if [ -n "$runlevels" ]; then
		for rl in $runlevels; do
			cur=; _t_enabled "$rl" && cur=1
			[ "$cur" = "$want" ] || enchg=1
		done
	else
		cur=; _t_enabled '?' && cur=1
		[ "$cur" = "$want" ] || enchg=1
	fi
fi
if [ -n "$enchg" ]; then
	printf '\nen_changed=1\n'
	if [ -z "$_t_check" ]; then
		if [ -n "$want" ]; then act=enable; else act=disable; fi
		if [ -n "$urc" ]; then
			tool=update-rc.d
			if [ -n "$runlevels" ]; then "$urc" "$name" "$act" $runlevels
			elif [ -n "$want" ] && ! ls /etc/rc?.d/[SK]??"$name" >/dev/null 2>&1; then "$urc" "$name" defaults
			else "$urc" "$name" "$act"
			fi >"$_t_d/lo" 2>"$_t_d/le"
			lrc=$?
		elif [ -n "$chk" ]; then
			tool=chkconfig
			if [ -n "$want" ]; then act=on; else act=off; fi
			if [ -n "$runlevels" ]; then "$chk" --level "$rlcat" "$name" "$act"
			else "$chk" "$name" "$act"; fi >"$_t_d/lo" 2>"$_t_d/le"
			lrc=$?
		else tool=none
		fi
		printf '\nen_ran=1\nen_tool=%s\nen_rc=%s\n' "$tool" "$lrc"
		_t_blob en_out "$_t_d/lo"; _t_blob en_err "$_t_d/le"
	fi
fi

# _t_run ACTION: the init script with ACTION and the task's arguments,
# detached from this session (setsid), so that a daemon it starts
# outlives the connection; with daemonize, from / as Ansible's daemonize
# runs it.
_t_run() {
	_t_cwd=.
	[ -n "$daemonize" ] && _t_cwd=/
	if command -v setsid >/dev/null; then (cd "$_t_cwd" && _t_args setsid "$script" "$1") >"$_t_d/so" 2>"$_t_d/se" </dev/null
	else (cd "$_t_cwd" && _t_args "$script" "$1") >"$_t_d/so" 2>"$_t_d/se" </dev/null; fi
	_rc=$?
	if [ $_rc -ne 0 ]; then
		printf '\nst_fail=1\nst_rc=%s\n' "$_rc"; _t_blob st_out "$_t_d/so"; _t_blob st_err "$_t_d/se"
		exit 0
	fi
}
change=
case $state in
restart) change=1 ;;
start) [ "$running" = 1 ] || change=1 ;;
stop) [ "$running" = 1 ] && change=1 ;;
reload) change=1 ;;
esac
if [ -n "$change" ]; then
	printf '\nst_changed=1\n'
	if [ -z "$_t_check" ]; then
		if [ "$state" = restart ]; then
			for a in stop start; do
				_t_run "$a"
				[ "$sleep" -gt 0 ] 2>/dev/null && sleep "$sleep"
			done
		else
			_t_run "$state"
		fi
		printf '\nst_rc=0\n'; _t_blob st_out "$_t_d/so"; _t_blob st_err "$_t_d/se"
	fi
fi
printf '\ndone=1\n'
