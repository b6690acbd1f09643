
_t_check=1
if [ -d "$p" ]; then echo isdir=1; exit 0; fi
# The path with every link resolved (readlink -f): a program only when
# the path itself is a link (or ends in . or ..); else its directory's
# physical path, from a subshell.
case $p in
*/. | */.. | . | .. | */ | '') r=$(readlink -f -- "$p" 2>/dev/null) || r= ;;
*)
	if [ -L "$p" ]; then
		r=$(readlink -f -- "$p" 2>/dev/null) || r=
	else
		case $p in */*) _t_rd=${p%/*} ;; *) _t_rd=. ;; esac
		r=$(CDPATH='' cd -P -- "${_t_rd:-/}" 2>/dev/null && pwd -P) && r=${r%/}/${p##*/} || r=
	fi
	;;
esac
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
