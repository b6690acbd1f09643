
[ -e "$src" ] || { echo failed=1; echo "msg=Source ($src) does not exist"; exit 0; }
[ -d "$src" ] || { echo failed=1; echo "msg=Source ($src) is not a directory"; exit 0; }
if [ -z "$listed" ]; then
	_ifs=$IFS; IFS='
'
	# shellcheck disable=SC2046 # split on newlines (IFS above): one name a line
	set -- $(cd "$src" && LC_ALL=C ls -A)
	IFS=$_ifs
fi
d=$(dirname -- "$dest")
[ -d "$d" ] || { echo failed=1; echo "msg=Destination directory $d does not exist"; exit 0; }
frag=$(mktemp "$d/.tender-XXXXXXXX") || { echo failed=1; echo "msg=could not create a temporary file in $d"; exit 0; }
trap 'rm -f "$frag"' EXIT
first=1 nl=
for n in "$@"; do
	f=$src/$n
	[ -f "$f" ] || continue
	case $n in .*) [ -n "$hidden" ] && continue ;; esac
	{
		[ -n "$nl" ] && echo
		[ -z "$first" ] && printf '%s' "$delim"
		cat -- "$f"
	} >>"$frag" || { echo failed=1; echo "msg=could not read $f"; exit 0; }
	first= nl=
	if [ ! -s "$f" ] || [ -n "$(tail -c 1 -- "$f")" ]; then nl=1; fi
done
echo "asm_md5=$(_t_sum md5 "$frag")"
source=$frag want=$(_t_sum sha1 "$frag") moved=1
