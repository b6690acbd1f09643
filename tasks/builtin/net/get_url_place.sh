
[ -n "$tmp" ] && trap 'rm -f "$tmp"' EXIT
cur=
if [ -e "$dest" ]; then cur=$(_t_sum sha1 "$dest"); echo "checksum_dest=$cur"; fi
if [ -n "$tmp" ]; then
	if [ "$cur" != "$want" ]; then
		_t_prepare "$dest" "$tmp" "$backup"
		mv -f -- "$tmp" "$dest" || _t_fail "failed to copy $tmp to $dest"
		_t_changed=1
	fi
fi
if [ -n "$sum" ]; then
	d=$(_t_sum "$algo" "$dest")
	if [ "$d" != "$sum" ]; then rm -f -- "$dest"; echo verdict=badsum; echo "digest=$d"; exit 0; fi
fi
_t_attrs "$dest" "$mode" "$owner" "$group"
echo verdict=done; echo "changed=$_t_changed"
echo "md5sum=$(_t_sum md5 "$dest")"
_t_info "$dest"
