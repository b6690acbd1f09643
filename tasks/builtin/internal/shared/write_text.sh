
_dir=$(dirname -- "$f")
[ -d "$_dir" ] || mkdir -p -- "$_dir" || { echo "fail=cannot create $_dir"; exit 0; }
_tmp=$(mktemp "$_dir/.tender-XXXXXXXX") || { echo "fail=cannot write in $_dir"; exit 0; }
if ! cat >"$_tmp"; then rm -f -- "$_tmp"; echo "fail=cannot write $_tmp"; exit 0; fi
if [ -e "$f" ]; then
	chmod "$(stat -c %a -- "$f")" -- "$_tmp" && chown "$(stat -c %u:%g -- "$f")" -- "$_tmp"
else
	{ [ -z "$mode" ] || chmod "$mode" -- "$_tmp"; } && { [ -z "$owner" ] || chown "$owner" -- "$_tmp"; }
fi 2>/dev/null
_t_seput "$_tmp" "$(_t_sekeep "$f")"
mv -f -- "$_tmp" "$f" || { rm -f -- "$_tmp"; echo "fail=cannot replace $f"; exit 0; }
echo written=1
_t_info "$f" | sed 's/^/pi_/'
