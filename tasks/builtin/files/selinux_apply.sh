
_edit() { # _edit KEY VALUE: replace KEY= lines of $cf, or append one
	_tmp=$(mktemp "$cf.XXXXXX") || exit 1
	awk -v k="$1" -v v="$2" 'index($0, k "=") == 1 { $0 = k "=" v; f = 1 } { print } END { if (!f) print k "=" v }' "$cf" >"$_tmp" &&
		chmod "$(stat -c %a "$cf")" "$_tmp" && mv -f -- "$_tmp" "$cf" || { rm -f -- "$_tmp"; echo "fail=cannot write $cf"; exit 0; }
}
[ -z "$setpolicy" ] || _edit SELINUXTYPE "$policy"
if [ -n "$enforce" ]; then
	if command -v setenforce >/dev/null 2>&1; then setenforce "$enforce"; else echo "$enforce" >/sys/fs/selinux/enforce; fi ||
		{ echo "fail=cannot set the running SELinux mode"; exit 0; }
fi
[ -z "$setstate" ] || _edit SELINUX "$state"
echo applied=1
