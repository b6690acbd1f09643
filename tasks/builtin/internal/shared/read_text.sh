
_t_check=1
if [ -d "$p" ]; then echo isdir=1; exit 0; fi
r=$(readlink -f -- "$p" 2>/dev/null) || r=
echo "real=$r"
if [ -e "$p" ]; then
	[ -r "$p" ] || _t_fail "Unable to read the contents of $p: permission denied"
	echo exists=1
	_t_info "$p"
	# (check mode: _t_attrs only tells; the stat _t_info just read serves)
	_t_streuse=1
	_t_attrs "$p" "$mode" "$owner" "$group"
	echo --content--
	cat -- "$p" || exit 1
fi
