
fail() { echo "fail=$1"; exit 0; }
ent=$(_t_ent passwd "$user" 2>/dev/null | awk -F: -v n="$user" '$1 == n { print; exit }')
if [ -n "$path" ] && [ -n "$check" ]; then
	f=$path
	[ -z "$follow" ] || wf=$(readlink -f -- "$f" || printf '%s' "$f")
else
	if [ -z "$ent" ]; then
		[ -n "$check" ] && [ -z "$path" ] && fail "Either user must exist or you must provide full path to key file in check mode"
		fail "Failed to lookup user $user: \"getpwnam(): name not found: '$user'\""
	fi
	home=$(printf '%s\n' "$ent" | cut -d: -f6)
	f=${path:-$home/.ssh/authorized_keys}
	echo "uid=$(printf '%s\n' "$ent" | cut -d: -f3)"
	echo "gid=$(printf '%s\n' "$ent" | cut -d: -f4)"
	wf=$f
	[ -z "$follow" ] || wf=$(readlink -f -- "$f" || printf '%s' "$f")
fi
echo "keyfile=$f"
echo "writefile=${wf:-$f}"
pi=$path
