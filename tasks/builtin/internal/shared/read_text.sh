
_t_check=1
# files up to this size are read by the shell itself (_t_readsmall)
_t_slurpmax=1024
if [ -d "$p" ]; then echo isdir=1; exit 0; fi
# The path with every link resolved (readlink -f): a program only when
# the path itself is a link (or ends in . or ..); else its directory's
# physical path: for an absolute path, where cd -P leads (and back), else
# from a subshell.
case $p in
*/. | */.. | . | .. | */ | '') r=$(readlink -f -- "$p" 2>/dev/null) || r= ;;
*)
	if [ -L "$p" ]; then
		r=$(readlink -f -- "$p" 2>/dev/null) || r=
	else
		case $p in */*) _t_rd=${p%/*} ;; *) _t_rd=. ;; esac
		CDPATH=
		_t_here=${PWD-}
		case $p in
		/*)
			if [ -n "$_t_here" ] && cd -P -- "${_t_rd:-/}" 2>/dev/null; then
				r=${PWD%/}/${p##*/}
				cd -- "$_t_here" 2>/dev/null || exit 1
			else r=; fi ;;
		*) r=$(cd -P -- "${_t_rd:-/}" 2>/dev/null && pwd -P) && r=${r%/}/${p##*/} || r= ;;
		esac
	fi
	;;
esac
if [ -e "$p" ]; then
	[ -r "$p" ] || { echo "real=$r"; _t_fail "Unable to read the contents of $p: permission denied"; }
	printf 'real=%s\nexists=1\n' "$r"
	_t_info "$p"
	# (check mode: _t_attrs only tells; the stat _t_info just read serves)
	_t_streuse=1
	_t_attrs "$p" "$mode" "$owner" "$group"
	case $_t_ssize in
	'' | *[!0-9]*) _t_ssize=$((_t_slurpmax + 1)) ;;
	esac
	if [ "$_t_ssize" -le "$_t_slurpmax" ] && _t_readsmall "$p" "$_t_ssize"; then
		printf '%s\n%s' --content-- "$_t_sa"
	else
		echo --content--
		cat -- "$p" || exit 1
	fi
else
	echo "real=$r"
fi
