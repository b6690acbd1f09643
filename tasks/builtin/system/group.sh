
fail() { echo "fail=$1"; exit "${_t_failrc:-0}"; }
# _t_grent NAME sets ent to NAME's group entry (_t_entby).
_t_grent() { _t_entby group "$1"; ent=$_t_eb; }
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
	[ "$rc" -eq 0 ] || { echo fail=rc; _t_tail; exit "${_t_failrc:-0}"; }
fi
# read again after a change (a task that changed nothing has it)
[ -z "$rc" ] || _t_grent "$name"
[ -z "$ent" ] || { _t_gidof; echo "gid=$cgid"; }
_t_tail
