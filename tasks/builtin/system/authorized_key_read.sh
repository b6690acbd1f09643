
fail() { echo "fail=$1"; exit 0; }
# the user's passwd entry, found by name (_t_entby), else none
_t_entby passwd "$user"
ent=$_t_eb
if [ -n "$path" ] && [ -n "$check" ]; then
	f=$path
	[ -z "$follow" ] || wf=$(readlink -f -- "$f" || printf '%s' "$f")
else
	if [ -z "$ent" ]; then
		[ -n "$check" ] && [ -z "$path" ] && fail "Either user must exist or you must provide full path to key file in check mode"
		fail "Failed to lookup user $user: \"getpwnam(): name not found: '$user'\""
	fi
	# its fields 3, 4 and 6: uid, gid, home
	_r=${ent#*:}; _r=${_r#*:}; _uid=${_r%%:*}
	_r=${_r#*:}; _gid=${_r%%:*}
	_r=${_r#*:}; _r=${_r#*:}; home=${_r%%:*}
	f=${path:-$home/.ssh/authorized_keys}
	echo "uid=$_uid"
	echo "gid=$_gid"
	wf=$f
	[ -z "$follow" ] || wf=$(readlink -f -- "$f" || printf '%s' "$f")
fi
echo "keyfile=$f"
echo "writefile=${wf:-$f}"
pi=$path
