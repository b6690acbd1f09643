
if [ -d "$dest" ]; then echo isdir=1; echo verdict=fetch; exit 0; fi
if [ -e "$dest" ]; then
	echo exists=1
	echo "sha1=$(_t_sum sha1 "$dest")"
	d=
	[ -n "$algo" ] && d=$(_t_sum "$algo" "$dest") && echo "digest=$d"
	echo "mtime=$(stat -c %Y -- "$dest")"
	if [ -z "$force" ] && [ -n "$sum" ] && [ "$d" = "$sum" ]; then
		_t_attrs "$dest" "$mode" "$owner" "$group"
		echo verdict=exists; echo "changed=$_t_changed"; _t_info "$dest"; exit 0
	fi
fi
echo verdict=fetch
_t_info "$dest"
