export LC_ALL=C
_t_x() { # ID CMD...: run CMD; on failure print it with its output
	_t_id=$1; shift
	"$@" >"$_t_d/xo" 2>"$_t_d/xe" </dev/null; _t_rc=$?
	[ $_t_rc -eq 0 ] && return 0
	printf 'failed=%s\nrc=%s\n' "$_t_id" "$_t_rc"
	printf '%s\0' "$@" >"$_t_d/xa"
	_t_blob argv "$_t_d/xa"
	_t_blob out "$_t_d/xo"
	_t_blob err "$_t_d/xe"
	exit 0
}
_t_end() { printf '\ndone=1\n'; exit 0; }
# The task's iptables commands are functions _t_a_ID, one an ID, that
# run their arguments followed by the command's own words. _t_c ID runs
# one through _t_x (failing with its output, as check_rc does), _t_p ID
# as a probe whose status alone counts (its output in $_t_d/po).
_t_c() { "_t_a_$1" _t_x "$1"; }
_t_probe() { "$@" >"$_t_d/po" 2>/dev/null </dev/null; }
_t_p() { "_t_a_$1" _t_probe; }
_t_need "$bin"
[ -z "$nochain" ] || { echo nochain=1; exit 0; }
[ -z "$logjump" ] || { echo logjump=1; exit 0; }
_t_x version "$_t_b" --version
# LooseVersion(out.split('v')[1]) >= 1.6.0: the numbers after the first v
_t_new=$(awk '
	{ s = s (NR > 1 ? "\n" : "") $0 }
	END {
		i = index(s, "v"); if (!i) exit
		s = substr(s, i + 1); i = index(s, "v"); if (i) s = substr(s, 1, i - 1)
		n = 0
		while (s != "") {
			if (match(s, /^[0-9]+/)) { v[++n] = substr(s, 1, RLENGTH) + 0; s = substr(s, RLENGTH + 1) }
			else if (substr(s, 1, 1) == ".") s = substr(s, 2)
			else { more = 1; break }
		}
		split("1 6 0", w, " ")
		for (k = 1; k <= 3; k++) {
			if (k > n) { if (more) print 1; exit }
			if (v[k] > w[k]) { print 1; exit }
			if (v[k] < w[k]) exit
		}
		print 1
	}' "$_t_d/xo")
[ -n "$_t_new" ] || _t_w=
case $mode in
flush)
	# tender: a table (or chain) without rules has nothing to flush
	if _t_p rules && ! grep -q '^-A ' "$_t_d/po"; then _t_end; fi
	echo changed=1
	[ -n "$check" ] || _t_c flush
	;;
policy)
	_t_c list
	cur=$(awk 'NR == 1 { if (match($0, /\(policy [A-Z]+\)/)) print substr($0, RSTART + 8, RLENGTH - 9); exit }' "$_t_d/xo")
	[ -n "$cur" ] || { echo nopolicy=1; exit 0; }
	[ "$cur" = "$policy" ] && _t_end
	echo changed=1
	[ -n "$check" ] || _t_c setpol
	;;
delchain)
	# tender: changed only when chain_management deletes the chain
	_t_p rules || _t_end
	[ -n "$cm" ] || _t_end
	echo changed=1
	[ -n "$check" ] || _t_c delchain
	;;
rule)
	if _t_p chk; then [ "$want" = present ] && _t_end
	else [ "$want" = absent ] && _t_end; fi
	echo changed=1
	[ -z "$check" ] || _t_end
	if [ "$want" = present ]; then
		if [ -n "$cm" ] && ! _t_p rules; then _t_c new; fi
		_t_c add
	else
		_t_c del
	fi
	;;
esac
_t_end
