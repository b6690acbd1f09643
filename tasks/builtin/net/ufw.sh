# ufw's helpers; the steps the task needs follow them (ufw_script.go).
export LANG=C
unset LC_ALL
# _u_ran ID: records, in order, that the command ID runs (a blob "ran")
_u_ran() { printf '\n@@blob %s ran\n%s' "${#1}" "$1"; }
# _u_x ID IGNORE BLOB CMD...: runs CMD; a failure (unless IGNORE) prints
# failed=ID, rc= and the blobs out and err, and ends the script; else
# CMD's output becomes the blob BLOB when BLOB is not empty
_u_x() {
	_u_id=$1 _u_ign=$2 _u_bl=$3
	shift 3
	_u_ran "$_u_id"
	"$@" >"$_t_d/xo" 2>"$_t_d/xe" </dev/null
	_u_rc=$?
	if [ "$_u_rc" -ne 0 ] && [ -z "$_u_ign" ]; then
		printf '\nfailed=%s\nrc=%s\n' "$_u_id" "$_u_rc"
		_t_blob out "$_t_d/xo"
		_t_blob err "$_t_d/xe"
		exit 0
	fi
	[ -z "$_u_bl" ] || _t_blob "$_u_bl" "$_t_d/xo"
}
# _u_fail MSG: ends the task with MSG
_u_fail() {
	printf '\nmsgfail=%s\n' "$1"
	exit 0
}
# _u_rules BLOB: the tuple lines of every user rules file
_u_rules() {
	_u_x "$1" 1 "$1" "$_u_grep" -h '^### tuple' /lib/ufw/user.rules /lib/ufw/user6.rules \
		/etc/ufw/user.rules /etc/ufw/user6.rules /var/lib/ufw/user.rules /var/lib/ufw/user6.rules
}
# _u_begin: finds ufw and grep, and saves the status and rules before
_u_begin() {
	_t_need ufw
	_u_ufw=$_t_b
	_t_need grep
	_u_grep=$_t_b
	printf '\nufw=%s\ngrep=%s\n' "$_u_ufw" "$_u_grep"
	_u_x pre_state '' pre_state "$_u_ufw" status verbose
	_u_rules pre_rules
}
# _u_relative REL N: sets _u_ins to N plus the rule number REL names in
# ufw status numbered, or to nothing past the last rule
_u_relative() {
	"$_u_ufw" status numbered >"$_t_d/no" 2>/dev/null </dev/null
	_u_ins=$(awk -v rel="$1" -v n="$2" '
		match($0, /^\[ *[0-9]+\] /) {
			s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); no = s + 0
			if (no > last) last = no
			if (index($0, "(v6)")) has6 = 1
			else { has4 = 1; if (no > max4) max4 = no }
		}
		END {
			if (rel == "first-ipv4") r = 1
			else if (rel == "last-ipv4") r = has4 ? max4 : 1
			else if (rel == "first-ipv6") r = has4 ? max4 + 1 : 1
			else r = has6 ? last : last + 1
			t = n + r
			if (t <= last) printf "%d\n", t
		}' "$_t_d/no")
}
# _u_version: runs ufw --version and sets _u_cmt when it takes comments
# (version 0.35 on, as the module reads the first line's last "D.D")
_u_version() {
	_u_x version '' '' "$_u_ufw" --version
	_u_v=$(awk '
		{ t = $0; gsub(/^[ \t\r\f\v]+|[ \t\r\f\v]+$/, "", t) }
		t != "" && !seen { seen = 1; line = $0 }
		END {
			if (!seen || substr(line, 1, 3) != "ufw") { print "bad"; exit }
			for (p = length(line) - 2; p >= 5; p--)
				if (substr(line, p) ~ /^[0-9]\.[0-9]/) break
			if (p < 5) { print "bad"; exit }
			rest = substr(line, p + 2); match(rest, /^[0-9]+/)
			maj = substr(line, p, 1) + 0; min = substr(rest, 1, RLENGTH) + 0
			print ((maj == 0 && min >= 35) || maj > 0) ? "comment" : "old"
		}' "$_t_d/xo")
	case $_u_v in
	bad)
		echo verfail=1
		_t_blob out "$_t_d/xo"
		exit 0
		;;
	comment) _u_cmt=1 ;;
	*) _u_cmt= ;;
	esac
}
