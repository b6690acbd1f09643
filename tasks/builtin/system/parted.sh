# parted.sh finds parted as Ansible's get_bin_path does ($PATH, then the
# sbin directories), prints bin=PATH (or fail= when there is none), then
# the _p_cmd calls appended after it run parted with their words. Each
# prints "@@ KIND RC" and parted's stdout lines prefixed "o ", its stderr
# lines prefixed "e "; the first one failing ends the script.
_p= _paths=
_ifs=$IFS; IFS=:
for _d in $PATH; do
	_paths=${_paths:+$_paths:}$_d
	if [ -z "$_p" ] && [ -f "$_d/parted" ] && [ -x "$_d/parted" ]; then _p=$_d/parted; fi
done
IFS=$_ifs
for _d in /sbin /usr/sbin /usr/local/sbin; do
	case ":$_paths:" in *":$_d:"*) continue ;; esac
	[ -e "$_d" ] || continue
	_paths=${_paths:+$_paths:}$_d
	if [ -z "$_p" ] && [ -f "$_d/parted" ] && [ -x "$_d/parted" ]; then _p=$_d/parted; fi
done
[ -n "$_p" ] || { printf 'fail=Failed to find required executable "parted" in paths: %s\n' "$_paths"; exit 0; }
printf 'bin=%s\n' "$_p"
LANG=C LC_ALL=C LC_MESSAGES=C LC_CTYPE=C
export LANG LC_ALL LC_MESSAGES LC_CTYPE
_p_cmd() {
	_k=$1; shift
	"$_p" "$@" >"$_t_d/po" 2>"$_t_d/pe"; _rc=$?
	printf '@@ %s %s\n' "$_k" "$_rc"
	sed 's/^/o /' "$_t_d/po"; sed 's/^/e /' "$_t_d/pe"
	return $_rc
}
