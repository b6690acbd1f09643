
command -v modprobe >/dev/null 2>&1 || { echo 'fail=Failed to find required executable "modprobe" in paths: '"$PATH"; exit 0; }
_loaded() {
	_n=$(printf '%s' "$name" | tr - _)
	awk -v n="$_n " 'index($0, n) == 1 { f = 1; exit } END { exit !f }' /proc/modules 2>"$_t_d/le" && return 0
	[ -r /proc/modules ] || { echo "pyerr=[Errno 2] No such file or directory: '/proc/modules'"; exit 0; }
	_b=/lib/modules/$(uname -r)/modules.builtin
	[ -r "$_b" ] || { echo "pyerr=[Errno 2] No such file or directory: '$_b'"; exit 0; }
	awk -v m="/$name.ko" '{ sub(/[ \t\r\n]+$/, "") } length($0) >= length(m) && substr($0, length($0) - length(m) + 1) == m { f = 1; exit } END { exit !f }' "$_b"
}
_t_fail() { echo fail=rc; echo "rc=$rc"; _t_tail; exit 0; }
if [ "$state" = present ]; then
	_loaded && { echo changed=0; exit 0; }
	if [ -n "$check" ]; then _t_run modprobe -n "$name" "$@" || _t_fail; echo changed=1; exit 0; fi
	_t_run modprobe "$name" "$@" || _t_fail
	if _loaded; then echo changed=1; exit 0; fi
	if ! modprobe -n --first-time "$name" "$@" >/dev/null 2>"$_t_d/w"; then
		printf 'warn=%s\n' "$(tr '\n' ' ' <"$_t_d/w")"
	fi
	echo changed=0
else
	_loaded || { echo changed=0; exit 0; }
	set -- -r "$name"
	[ -n "$check" ] && set -- "$@" -n
	_t_run modprobe "$@" || _t_fail
	echo changed=1
fi
