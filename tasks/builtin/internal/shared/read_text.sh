
_t_check=1
# files up to this size are read by the shell itself (_t_readsmall)
_t_slurpmax=1024
# With _t_want set (lineinfile's line, see ReadTextUnless; _t_find,
# _t_where and _t_first say how the line to replace is found), a file
# that already holds that line as Ansible would leave it, with the
# attributes asked for, prints noop=1 and exits 0, without its bytes;
# every other end exits $_t_readrc (10 there).
if [ -d "$p" ]; then echo isdir=1; exit "${_t_readrc:-0}"; fi
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
	_t_streuse=1 _t_changed=
	_t_attrs "$p" "$mode" "$owner" "$group"
	[ -n "${_t_want+x}" ] && [ -z "$_t_changed" ] || _t_want=
	case $_t_ssize in
	'' | *[!0-9]*) _t_ssize=$((_t_slurpmax + 1)) ;;
	esac
	if [ "$_t_ssize" -le "$_t_slurpmax" ] && _t_readsmall "$p" "$_t_ssize"; then
		if [ -n "$_t_want" ] && [ -z "$_t_find" ]; then
			# the line is there, newline-ended, and no line that is the
			# line with carriage returns or without a newline follows it
			# (such files are left to the controller's reading)
			case $_t_sa in
			"$_t_want$_t_cr"* | *"$_t_nl$_t_want$_t_cr"* | "$_t_want" | *"$_t_nl$_t_want") ;;
			"$_t_want$_t_nl"* | *"$_t_nl$_t_want$_t_nl"*) echo noop=1; exit 0 ;;
			esac
		elif [ -n "$_t_want" ]; then
			# the last line (the first with _t_first) that holds
			# $_t_find where $_t_where says is the line, newline-ended
			_t_rest=$_t_sa _t_got= _t_hit= _t_hitnl=
			while [ -n "$_t_rest" ]; do
				case $_t_rest in
				*"$_t_nl"*)
					_t_l=${_t_rest%%"$_t_nl"*}
					_t_rest=${_t_rest#*"$_t_nl"}
					_t_t=1 ;;
				*) _t_l=$_t_rest; _t_rest=; _t_t= ;;
				esac
				case $_t_where in
				s) case $_t_l in "$_t_find"*) ;; *) continue ;; esac ;;
				a) case $_t_l in *"$_t_find"*) ;; *) continue ;; esac ;;
				e) case $_t_l in *"$_t_find") ;; *) continue ;; esac ;;
				*) [ "$_t_l" = "$_t_find" ] || continue ;;
				esac
				_t_got=1 _t_hit=$_t_l _t_hitnl=$_t_t
				[ -z "$_t_first" ] || break
			done
			if [ -n "$_t_got" ] && [ -n "$_t_hitnl" ] && [ "$_t_hit" = "$_t_want" ]; then echo noop=1; exit 0; fi
		fi
		printf '%s\n%s' --content-- "$_t_sa"
	else
		# the last line that is the line, less its trailing carriage
		# returns, is the line and ends in a newline; every byte counted
		# (stat's size is the bytes awk read), as text (a line and the
		# line that look like numbers are not compared as numbers: 01 is
		# not 1), by an awk that keeps a NUL
		# inside its record (busybox's ends the record there): asked
		# once, and the answer kept in the shell's private directory
		if [ -n "$_t_want" ]; then
			if [ -n "${__tender_d-}" ] && [ -e "$__tender_d/awkn1" ]; then
				_t_an=1
			elif [ -n "${__tender_d-}" ] && [ -e "$__tender_d/awkn0" ]; then
				_t_an=
			else
				_t_an=
				printf 'a\000b\n' | LC_ALL=C awk 'END { exit !(NR == 1 && n == 4) } { n += length($0) + 1 }' 2>/dev/null && _t_an=1
				[ -z "${__tender_d-}" ] || : >"$__tender_d/awkn${_t_an:-0}"
			fi
			[ -n "$_t_an" ] || _t_want=
		fi
		# (with _t_find, the line found as above)
		[ -z "$_t_want" ] || ! LC_ALL=C _t_w=$_t_want _t_x=$_t_find _t_h=$_t_where _t_f=$_t_first awk -v s="$_t_ssize" '
BEGIN { w = ENVIRON["_t_w"] ""; x = ENVIRON["_t_x"] ""; h = ENVIRON["_t_h"] ""; f = ENVIRON["_t_f"] "" }
{
	n += length($0) + 1; l = $0 ""
	if (x == "") { r = l; sub(/\r+$/, "", r); m = (r == w) }
	else if (h == "s") m = (substr(l, 1, length(x)) == x)
	else if (h == "a") m = (index(l, x) > 0)
	else if (h == "e") m = (length(l) >= length(x) && substr(l, length(l) - length(x) + 1) == x)
	else m = (l == x)
	if (m && !(f != "" && k)) { e = (l == w); k = NR }
}
END { exit !(w != "" && k && e && (n == s || (n == s + 1 && k != NR))) }' "$p" 2>/dev/null || { echo noop=1; exit 0; }
		echo --content--
		cat -- "$p" || exit 1
	fi
else
	echo "real=$r"
fi
exit "${_t_readrc:-0}"
