
_t_exists() { [ -e "$1" ] || [ -L "$1" ]; }
# _t_glob PATTERN: whether a path matches PATTERN (not split, globbed).
# No subshell: IFS is put back as it was, set or unset.
_t_glob() {
	if [ -n "${IFS+x}" ]; then _t_gifs=x$IFS; else _t_gifs=; fi
	IFS= _t_g=1
	for _t_gf in $1; do _t_exists "$_t_gf" && { _t_g=0; break; }; done
	if [ -n "$_t_gifs" ]; then IFS=${_t_gifs#x}; else unset IFS; fi
	return $_t_g
}
# _t_readsmall FILE SIZE sets _t_sa to FILE's bytes when the shell's read
# gives back SIZE of them (a NUL byte, which read drops, makes it fewer),
# else fails: for a small file, no program started. Read a byte at a time:
# only for a SIZE stat gave, and a small one.
_t_readsmall() {
	_t_sa= _t_sl=
	{
		while IFS= read -r _t_sl; do
			_t_sa=$_t_sa$_t_sl'
'
			_t_sl=
		done
	} <"$1" || return 1
	_t_sa=$_t_sa$_t_sl
	[ "${#_t_sa}" -eq "$2" ]
}
# _t_sumv VAR ALGO FILE sets VAR to FILE's ALGO digest (empty when it
# cannot be read): one process. _t_sum ALGO FILE prints it.
_t_sumv() {
	case $2 in
	md5 | sha1 | sha224 | sha256 | sha384 | sha512) _t_s=$("$2sum" 2>/dev/null <"$3") || _t_s= ;;
	*) _t_s= ;;
	esac
	eval "$1=\${_t_s%% *}"
}
_t_sum() {
	_t_sumv _t_s "$1" "$2"
	echo "$_t_s"
}
# _t_open_err P prints why P cannot be opened for reading (the C library's
# text, as Python's OSError.strerror), nothing when it can: a directory
# opens. _t_stat_err P prints why stat(P), following links, fails.
_t_open_err() { LC_ALL=C head -c 0 -- "$1" 2>&1 >/dev/null | sed -n '$s/.*: //p'; }
_t_stat_err() { LC_ALL=C ls -dL -- "$1" 2>&1 >/dev/null | sed -n '$s/.*: //p'; }
