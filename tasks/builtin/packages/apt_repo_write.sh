
export LC_ALL=C
_t_d=$(mktemp -d) || { echo 'fail=cannot create a temporary directory'; exit 0; }
trap 'rm -rf "$_t_d"' EXIT
_t_stop() { printf 'fail=%s\n' "$1" | tr '\n' ' '; echo; _t_revert; exit 0; }
_t_same() {
	_t_now=
	[ -f "$1" ] && _t_now=$(md5sum <"$1" | cut -c1-32)
	[ "$_t_now" = "$2" ] || { printf 'fail=%s changed while apt_repository was editing it; run again\n' "$1"; exit 0; }
}
_t_save() { [ -e "$2" ] || return 0; cp -p -- "$2" "$_t_d/b$1" || _t_stop "cannot keep a copy of $2"; }
_t_put() {
	_t_dir=$(dirname -- "$1")
	[ -d "$_t_dir" ] || mkdir -p -- "$_t_dir" 2>"$_t_d/err" || _t_stop "Failed to create directory $_t_dir: $(cat "$_t_d/err")"
	_t_tmp=$(mktemp "$_t_dir/.$(basename -- "$1")-XXXXXXXX" 2>"$_t_d/err") ||
		_t_stop "Unable to create temp file at \"$_t_dir\" for apt source: $(cat "$_t_d/err")"
	printf '%s' "$2" >"$_t_tmp" || { rm -f -- "$_t_tmp"; _t_stop "Failed to write to file $_t_tmp"; }
	if [ -e "$1" ]; then
		chmod "$(stat -L -c %a -- "$1")" -- "$_t_tmp" && chown "$(stat -L -c %u:%g -- "$1")" -- "$_t_tmp"
	else
		chmod "$(printf '%o' $((0666 & ~0$(umask))))" -- "$_t_tmp"
	fi 2>/dev/null
	_t_to=$1
	[ -L "$1" ] && _t_to=$(readlink -f -- "$1")
	mv -f -- "$_t_tmp" "$_t_to" 2>"$_t_d/err" || { rm -f -- "$_t_tmp"; _t_stop "Unable to make $_t_tmp into to $_t_to, failed final rename from $_t_tmp: $(cat "$_t_d/err")"; }
	[ -z "$3" ] || chmod "$3" -- "$_t_to" 2>"$_t_d/err" || _t_stop "chmod failed: $(cat "$_t_d/err")"
}
_t_drop() { rm -f -- "$1" 2>"$_t_d/err" || _t_stop "$(cat "$_t_d/err")"; }
_t_undo() {
	if [ -e "$_t_d/b$1" ]; then cp -p -- "$_t_d/b$1" "$2"; else rm -f -- "$2"; fi
}
_t_update() {
	_t_i=0 _t_delay=1
	while [ "$_t_i" -lt "$retries" ]; do
		apt-get update -q >/dev/null 2>"$_t_d/uerr" && return 0
		_t_i=$((_t_i + 1))
		[ "$_t_i" -lt "$retries" ] || break
		[ "$_t_delay" -gt "$maxdelay" ] && _t_delay=$maxdelay
		sleep "$_t_delay"
		_t_delay=$((_t_delay * 2))
	done
	_t_e=$(sed -n 's/^\([EW]\): /\1:/p' "$_t_d/uerr" 2>/dev/null | awk 'NR > 1 { printf ", " } { printf "%s", $0 }')
	printf 'uerr=%s\n' "${_t_e:-unknown reason}"
	return 1
}

# The plan: the positional parameters are five words a file: its path,
# the MD5 of what was read from it (empty: it did not exist), what to do
# (put, drop or keep), its new text and the mode to give it (empty: keep
# the mode). Every file is checked to be still what was read, every file
# to change is saved, then written or removed; last, apt-get update when
# $update is set. A failing step puts the saved files back (_t_revert).
_t_saved=0
_t_revert() {
	_t_k=0
	while [ "$_t_k" -lt "$_t_saved" ]; do
		eval "_t_undo $_t_k \"\$_t_p$_t_k\""
		_t_k=$((_t_k + 1))
	done
}
_t_check_all() {
	while [ $# -ge 5 ]; do _t_same "$1" "$2"; shift 5; done
}
_t_save_all() {
	while [ $# -ge 5 ]; do
		if [ "$3" != keep ]; then
			_t_save "$_t_saved" "$1"
			eval "_t_p$_t_saved=\$1"
			_t_saved=$((_t_saved + 1))
		fi
		shift 5
	done
}
_t_apply_all() {
	while [ $# -ge 5 ]; do
		case $3 in
		put) _t_put "$1" "$4" "$5" ;;
		drop) _t_drop "$1" ;;
		esac
		shift 5
	done
}
_t_check_all "$@"
_t_save_all "$@"
_t_apply_all "$@"
if [ -n "$update" ]; then _t_update || { _t_revert; exit 0; }; fi
echo done=1
