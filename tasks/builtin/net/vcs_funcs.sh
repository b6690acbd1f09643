
_t_d=$(mktemp -d) || exit 1
trap 'rm -rf "$_t_d"' EXIT
_v_nw=0 _v_stdin= _v_cmd= _v_det=
_v_in() {
	_v_cd=$1
	shift
	printf '%s\0' "$@" >"$_t_d/argv"
	case $1 in
	*/*) if [ ! -e "$1" ]; then _v_noexe 2; elif [ -d "$1" ] || [ ! -x "$1" ]; then _v_noexe 13; fi ;;
	esac
	if [ -n "$_v_stdin" ]; then
		printf '%s\n' "$_v_stdin" | (if [ -n "$_v_cd" ] && [ -d "$_v_cd" ]; then cd "$_v_cd" || exit 1; fi; exec "$@") >"$_t_d/o" 2>"$_t_d/e"
	else
		(if [ -n "$_v_cd" ] && [ -d "$_v_cd" ]; then cd "$_v_cd" || exit 1; fi; exec "$@") >"$_t_d/o" 2>"$_t_d/e" </dev/null
	fi
	_v_rc=$?
}
_v_noexe() {
	echo "noexe=$1"
	_t_blob argv "$_t_d/argv"
	exit 0
}
_v_chk() {
	_v_in "$@"
	[ "$_v_rc" = 0 ] && return 0
	echo "rc=$_v_rc"
	_t_blob argv "$_t_d/argv"
	_t_blob stdout "$_t_d/o"
	_t_blob stderr "$_t_d/e"
	echo fail=rc
	exit 0
}
_v_put() {
	printf '%s' "$2" >"$_t_d/p"
	_t_blob "$1" "$_t_d/p"
}
_v_cat() {
	_v_c=$(cat -- "$1"; echo .)
	_v_c=${_v_c%.}
}
_v_warn() {
	_v_nw=$((_v_nw + 1))
	_v_put "warn$_v_nw" "$1"
}
_v_fail() {
	_v_put msg "$1"
	shift
	for _v_f; do
		case $_v_f in
		stdout) _t_blob stdout "$_t_d/o" ;;
		stderr) _t_blob stderr "$_t_d/e" ;;
		rc) echo "rc=$_v_rc" ;;
		cmd) _v_put cmd "$_v_cmd" ;;
		argv) _t_blob argv "$_t_d/argv" ;;
		details) _v_put details "$_v_det" ;;
		result) _v_result ;;
		esac
	done
	echo fail=msg
	exit 0
}
_v_lt() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		na = split(a, x, /[^0-9]+/); nb = split(b, y, /[^0-9]+/)
		i = 1; j = 1
		while (1) {
			while (i <= na && x[i] == "") i++
			while (j <= nb && y[j] == "") j++
			if (i > na || j > nb) exit !(i > na && j <= nb)
			if (x[i] + 0 != y[j] + 0) exit !(x[i] + 0 < y[j] + 0)
			i++; j++
		}
	}'
}
_v_abs() {
	case $1 in /*) _v_p=$1 ;; *) _v_p=$PWD/$1 ;; esac
	_v_p=$(printf '%s\n' "$_v_p" | awk '{
		n = split($0, p, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (p[i] == "" || p[i] == ".") continue
			if (p[i] == "..") { if (k > 0) k--; continue }
			s[++k] = p[i]
		}
		o = ""; for (i = 1; i <= k; i++) o = o "/" s[i]
		print (o == "" ? "/" : o)
	}')
}
