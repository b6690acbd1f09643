
_t_d=$(mktemp -d) || exit 1
trap 'rm -rf "$_t_d"' EXIT
if [ -n "${chdir+1}" ]; then
	case $chdir in /*) _t_a=$chdir ;; *) _t_a=$PWD/$chdir ;; esac
	printf '%s' "$_t_a" >"$_t_d/p"
	if [ ! -e "$_t_a" ]; then echo chdir=2; _t_blob path "$_t_d/p"; exit 0; fi
	if [ ! -d "$_t_a" ]; then echo chdir=20; _t_blob path "$_t_d/p"; exit 0; fi
	cd "$_t_a" 2>/dev/null || { echo chdir=13; _t_blob path "$_t_d/p"; exit 0; }
fi
if [ -n "${creates+1}" ] && [ -e "$creates" ]; then
	printf '%s' "$creates" >"$_t_d/p"; echo skip=creates; _t_blob path "$_t_d/p"; exit 0
fi
if [ -n "${removes+1}" ] && [ ! -e "$removes" ]; then
	printf '%s' "$removes" >"$_t_d/p"; echo skip=removes; _t_blob path "$_t_d/p"; exit 0
fi
_t_isx() { [ -f "$1" ] && [ -x "$1" ]; }
_t_x=
set -- "$_t_cmd"
case $1 in */*) _t_isx "$1" && _t_x=$1 ;; esac
if [ -z "$_t_x" ]; then
	_t_ifs=$IFS; IFS=:
	for _t_p in ${PATH:-/bin:/usr/bin}; do
		case $1 in /*) _t_f=$1 ;; *) case $_t_p in '') _t_f=$1 ;; */) _t_f=$_t_p$1 ;; *) _t_f=$_t_p/$1 ;; esac ;; esac
		_t_isx "$_t_f" && { _t_x=$_t_f; break; }
	done
	IFS=$_t_ifs
fi
[ -n "$_t_x" ] || { echo notfound=1; exit 0; }
script --version 2>/dev/null | grep -q util-linux || { echo noscript=1; exit 0; }
{
	printf 'echo $$ >%s\n' "'$_t_d/pid'"
	[ -n "$echo" ] || echo 'stty -echo 2>/dev/null'
	echo 'stty rows 24 cols 80 2>/dev/null'
	if [ -n "${SHELL+1}" ]; then printf 'SHELL=%s\n' "'$(printf '%s' "$SHELL" | sed "s/'/'\\\\''/g")'"; else echo 'unset SHELL'; fi
	printf "exec '%s'%s\n" "$(printf '%s' "$_t_x" | sed "s/'/'\\\\''/g")" "$_t_qargs"
} >"$_t_d/run"
mkfifo "$_t_d/in" || exit 1
_t_kill() { # the command may not have started yet: wait for its pid
	while [ ! -s "$_t_d/pid" ] && kill -0 "$_t_sp" 2>/dev/null; do sleep 0.05; done
	_t_pid=$(cat "$_t_d/pid" 2>/dev/null) || return 0
	for _t_s in HUP CONT INT KILL; do
		kill -s "$_t_s" -- "-$_t_pid" 2>/dev/null || return 0
		[ "$_t_s" = CONT ] || sleep 0.1
	done
}
printf 'run=1%s' "$_t_mark"
exec 5<&0
SHELL=/bin/sh script -qec ". '$_t_d/run'" /dev/null <"$_t_d/in" 5<&- &
_t_sp=$!
{
	while IFS= read -r _t_l; do
		case $_t_l in
		d*) printf '%b' "${_t_l#d}" >&3 ;;
		k) break ;;
		esac
	done
	_t_kill
} 3>"$_t_d/in" <&5 >/dev/null 2>&1 &
_t_rp=$!
exec 5<&-
wait "$_t_sp"
_t_rc=$?
rm -f "$_t_d/pid"
kill "$_t_rp" 2>/dev/null
exit "$_t_rc"
