
fail() { echo "fail=$1"; exit 0; }
# _t_grent NAME sets ent to NAME's group entry, empty when none (a number
# getent took for a gid is not NAME): one process (two for a name of
# digits that getent does not find as a name).
_t_grent() {
	ent=$(_t_ent group "$1" 2>/dev/null) || ent=
	ent=${ent%%
*}
	case $ent in "$1":*) ;; *) ent= ;; esac
	# getent takes a number for a gid: a group named by digits is looked
	# up by name in the group file, as getgrnam finds it there.
	case $1 in
	'' | *[!0-9]*) ;;
	*) [ -n "$ent" ] || ent=$(awk -F: -v n="$1" '$1 == n { print; exit }' /etc/group 2>/dev/null) || ent= ;;
	esac
}
# _t_gidof sets cgid to the gid field of $ent.
_t_gidof() { cgid=${ent#*:}; cgid=${cgid#*:}; cgid=${cgid%%:*}; }
if command -v groupadd >/dev/null 2>&1; then kind=shadow
elif command -v addgroup >/dev/null 2>&1; then kind=busybox
else fail 'Failed to find required executable "groupadd" in paths: '"$PATH"
fi
_t_grent "$name"
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
	_t_gidof
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
# read again after a change (a task that changed nothing has it)
[ -z "$rc" ] || _t_grent "$name"
[ -z "$ent" ] || { _t_gidof; echo "gid=$cgid"; }
_t_tail
