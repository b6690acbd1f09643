
if [ -n "$manage" ]; then
	if [ ! -e "$sshdir" ]; then mkdir -m 0700 -- "$sshdir" || { echo "fail=Failed to create directory $sshdir"; exit 0; }; fi
	chown "$owner" -- "$sshdir"; chmod 0700 -- "$sshdir"
fi
if [ ! -e "$f" ]; then mkdir -p -- "$(dirname -- "$f")" && : >"$f" || { echo "fail=cannot create $f"; exit 0; }; fi
chown "$owner" -- "$f" 2>/dev/null; chmod 0600 -- "$f" 2>/dev/null
