# make: runs "$make" "$@" -q in $chdir (in $HOME when that is not a
# directory, where Ansible's module would stay), and, when the target is
# not up to date and not $check, "$make" "$@". $make empty: gmake, else
# make, looked up as Ansible's get_bin_path does. Prints make=, chdir=,
# file= and each argument aN= (hex, as expanded), noexec= (the errno of a
# program that cannot start), qrc= and rc=, then the last run's output.
_gx() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; echo; }
if [ -z "$make" ]; then
	_paths=$PATH
	for _p in /sbin /usr/sbin /usr/local/sbin; do
		case :$_paths: in *:"$_p":*) ;; *) [ -e "$_p" ] && _paths=$_paths:$_p ;; esac
	done
	_ifs=$IFS; IFS=:
	for _n in gmake make; do
		for _p in $_paths; do
			[ -n "$_p" ] && [ -f "$_p/$_n" ] && [ -x "$_p/$_n" ] && { make=$_p/$_n; break 2; }
		done
	done
	IFS=$_ifs
	[ -n "$make" ] || { echo "nomake=$(_gx "$_paths")"; exit 0; }
fi
echo "make=$(_gx "$make")"
echo "chdir=$(_gx "$chdir")"
[ -z "$usefile" ] || echo "file=$(_gx "$file")"
_i=0
for _a; do echo "a$_i=$(_gx "$_a")"; _i=$((_i + 1)); done
echo "argc=$_i"
_e=
case $make in
*/*) if [ ! -e "$make" ]; then _e=2; elif [ -d "$make" ] || [ ! -x "$make" ]; then _e=13; fi ;;
*) command -v "$make" >/dev/null 2>&1 || _e=2 ;;
esac
[ -z "$_e" ] || { echo "noexec=$_e"; exit 0; }
if [ -d "$chdir" ]; then cd "$chdir" || exit 1; else cd "$HOME" 2>/dev/null || :; fi
"$make" "$@" -q >"$_t_d/o" 2>"$_t_d/e"
qrc=$?
echo "qrc=$qrc"
if [ -z "$check" ] && [ "$qrc" != 0 ]; then
	: >"$_t_d/o"; : >"$_t_d/e"
	"$make" "$@" >"$_t_d/o" 2>"$_t_d/e"
	echo "rc=$?"
fi
_t_tail
