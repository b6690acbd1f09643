# git_config: reads $name (or lists) with git config "$@" in $dir, and
# when $act asks (set or unset) and the setting differs, writes it unless
# $check. Prints git= (hex), file= (hex, the expanded -f file), rc= of the
# read, state= (nothing, same or change), wrc= and wfail= of the write,
# then the read's stdout and the read's (or failed write's) stderr.
export LANG=C LC_ALL=C LC_MESSAGES=C LC_CTYPE=C
_gx() { printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'; echo; }
# Ansible's get_bin_path: $PATH, then the sbin directories that exist.
_paths=$PATH
for _p in /sbin /usr/sbin /usr/local/sbin; do
	case :$_paths: in *:"$_p":*) ;; *) [ -e "$_p" ] && _paths=$_paths:$_p ;; esac
done
git=
_ifs=$IFS; IFS=:
for _p in $_paths; do
	[ -n "$_p" ] && [ -f "$_p/git" ] && [ -x "$_p/git" ] && { git=$_p/git; break; }
done
IFS=$_ifs
[ -n "$git" ] || { echo "nogit=$(_gx "$_paths")"; exit 0; }
echo "git=$(_gx "$git")"
[ -z "$usefile" ] || echo "file=$(_gx "$file")"
baddir=
if [ -d "$dir" ]; then cd "$dir" || baddir=1; else baddir=1; fi
[ -z "$baddir" ] || echo "baddir=$(_gx "$dir")"
if [ -n "$name" ]; then
	"$git" config "$@" "$name" >"$_t_d/o" 2>"$_t_d/e"
else
	"$git" config "$@" >"$_t_d/o" 2>"$_t_d/e"
fi
rc=$?
echo "rc=$rc"
if [ "$rc" -ge 2 ] || [ -z "$act" ]; then _t_tail; exit 0; fi
if [ "$act" = unset ]; then
	[ -s "$_t_d/o" ] || { echo state=nothing; _t_tail; exit 0; }
else
	# the value read, stripped of trailing white space, equals $new
	out=$(cat "$_t_d/o"; echo x); out=${out%x}
	same=
	case $new in
	*[[:space:]]) ;;
	*) case $out in "$new"*) _r=${out#"$new"}; case $_r in *[![:space:]]*) ;; *) same=1 ;; esac ;; esac ;;
	esac
	[ -z "$same" ] || { echo state=same; _t_tail; exit 0; }
fi
echo state=change
if [ -z "$check" ]; then
	[ -z "$baddir" ] || { echo wfail=cwd; _t_tail; exit 0; }
	if [ "$act" = unset ]; then
		"$git" config "$@" --unset "$name" >"$_t_d/wo" 2>"$_t_d/we"
	else
		"$git" config "$@" "$name" "$new" >"$_t_d/wo" 2>"$_t_d/we"
	fi
	echo "wrc=$?"
	[ -s "$_t_d/we" ] && { echo wfail=1; cp "$_t_d/we" "$_t_d/e"; }
fi
_t_tail
