# Reads the limits file $p for pam_limits, creating it empty when it is
# missing and its directory ($dir, "" for none) is writable (in check
# mode, $check set, only saying it would), and copying it aside first
# when $backup is set. Prints ok=1, created=1, isdir=1 (a
# directory where the file should be), fail= (the module's message),
# backup_file=, then the file's bytes after a --content-- line.
echo ok=1
if [ -f "$p" ]; then
	[ -w "$p" ] || { printf 'fail=%s is not writable. Use sudo\n' "$p"; exit 0; }
elif [ -n "$dir" ] && [ -d "$dir" ] && [ -w "$dir" ]; then
	[ -d "$p" ] && { echo isdir=1; exit 0; }
	if [ -z "$check" ]; then
		: >>"$p" 2>/dev/null || { printf 'fail=cannot create %s\n' "$p"; exit 0; }
	fi
	echo created=1
else
	printf 'fail=directory %s is not writable (check presence, access rights, use sudo)\n' "$dir"
	exit 0
fi
if [ -n "$backup" ]; then
	_b="$p.$$.$(date +%Y-%m-%d@%H:%M:%S)~"
	cp -p -- "$p" "$_b" || { printf 'fail=could not back up %s\n' "$p"; exit 0; }
	printf 'backup_file=%s\n' "$_b"
fi
echo --content--
[ ! -f "$p" ] && [ -n "$check" ] && exit 0
cat -- "$p" || exit 1
