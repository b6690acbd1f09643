
export LC_ALL=C
command -v apt-config >/dev/null 2>&1 || { echo 'fail=Module apt_repository is not supported on target.'; exit 0; }
_t_sl= _t_sp=
eval "$(apt-config shell _t_sl Dir::Etc::sourcelist/f _t_sp Dir::Etc::sourceparts/d)"
[ -n "$_t_sl" ] && [ -n "$_t_sp" ] || { echo 'fail=apt-config names no sources list'; exit 0; }
printf 'sl=%s\nsp=%s\n' "$_t_sl" "${_t_sp%/}/"
if [ -n "$want_codename" ]; then
	_t_cn=sid
	if command -v lsb_release >/dev/null 2>&1; then
		_t_cn=$(lsb_release -cs 2>/dev/null)
		[ -n "$_t_cn" ] || _t_cn=sid
	fi
	printf 'codename=%s\n' "$_t_cn"
fi
for _t_f in "$_t_sl" "${_t_sp%/}"/*.list; do
	[ -f "$_t_f" ] || continue
	[ -r "$_t_f" ] || { printf 'fail=cannot read %s\n' "$_t_f"; exit 0; }
	_t_blob "$_t_f" "$_t_f"
done
echo done=1
