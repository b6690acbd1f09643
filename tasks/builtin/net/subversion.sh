
r_changed= r_before= r_after=
_v_result() {
	echo "changed=$r_changed"
	_v_put before "$r_before"
	_v_put after "$r_after"
}
_s_exit() {
	_v_result
	echo done=1
	exit 0
}
password=$TENDER_SVN_PASSWORD
unset TENDER_SVN_PASSWORD
if [ -n "$svnexe" ]; then S=$svnexe; else _t_need svn; S=$_t_b; fi
_t_locale
export LC_MESSAGES="$_t_loc"
if [ -z "$dest" ] && { [ -n "$checkout" ] || [ -n "$update" ] || [ -n "$export" ]; }; then
	_v_fail 'the destination directory must be specified unless checkout=no, update=no, and export=no'
fi
_s_ok=
_s_exec() { # chk|rc ARGS...: svn with the options of every call (Subversion._exec)
	_s_mode=$1
	shift
	if [ -n "$password" ] && [ -z "$_s_ok" ]; then
		_v_chk "" "$S" --version --quiet
		_s_v=$(cat "$_t_d/o")
		if _v_lt "$_s_v" 1.10.0; then
			_v_fail "svn $_s_v cannot read a password from its standard input (--password-from-stdin needs svn 1.10.0): tender puts no password on a command line"
		fi
		_s_ok=1
	fi
	_s_n=$#
	set -- "$@" --non-interactive --no-auth-cache
	[ -z "$trust" ] || set -- "$@" --trust-server-cert
	[ -z "$username" ] || set -- "$@" --username "$username"
	[ -z "$password" ] || set -- "$@" --password-from-stdin
	while [ "$_s_n" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		_s_n=$((_s_n - 1))
	done
	_v_stdin=$password
	if [ "$_s_mode" = chk ]; then _v_chk "" "$S" "$@"; else _v_in "" "$S" "$@"; fi
	_v_stdin=
}
_s_revline() { # FILE DEFAULT: the first "Revision: N" line (REVISION_RE), else DEFAULT
	awk -v d="$2" '/^[[:alnum:]_]+[[:space:]]?:[[:space:]]+[0-9]+$/ { print; f = 1; exit } END { if (!f) print d }' "$1"
}
_s_revision() { # get_revision: "l=" REVISION NL URL in _s_r
	_s_exec chk info "$dest"
	_s_r=$(_s_revline "$_t_d/o" 'Unable to get revision')
	_s_u=$(awk '/^URL[[:space:]]?:/ { print; f = 1; exit } END { if (!f) print "Unable to get URL" }' "$_t_d/o")
	_s_r="l=$_s_r
$_s_u"
}
_s_mods() { # has_local_mods
	_s_exec chk status --quiet --ignore-externals "$dest"
	grep -q '^[^?X]' "$_t_d/o"
}
_s_changes() { # the last command changed files (switch, update)
	grep -q '^[ABDUCGE][[:space:]]' "$_t_d/o"
}
_s_same() { # FROM TO: every file, link and directory under FROM is the same under TO
	(cd "$1" && find . ! -name . -print) | while IFS= read -r _s_p; do
		_s_a=$1/$_s_p _s_b=$2/$_s_p
		if [ -L "$_s_a" ]; then
			[ -L "$_s_b" ] && [ "$(readlink "$_s_a")" = "$(readlink "$_s_b")" ] || exit 1
		elif [ -d "$_s_a" ]; then
			[ -d "$_s_b" ] || exit 1
		else
			[ -f "$_s_b" ] && [ ! -L "$_s_b" ] && cmp -s "$_s_a" "$_s_b" || exit 1
			if [ -x "$_s_a" ]; then [ -x "$_s_b" ] || exit 1; elif [ -x "$_s_b" ]; then exit 1; fi
		fi
	done
}
if [ -z "$export" ] && [ -z "$update" ] && [ -z "$checkout" ]; then
	_s_exec chk info "$repo"
	r_after="s=$(_s_revline "$_t_d/o" 'Unable to get remote revision')"
	_s_exit
fi
if [ -n "$export" ] || [ ! -e "$dest" ]; then
	if [ -n "$export" ] && [ -n "$force" ] && [ -e "$dest" ]; then
		_s_tmp=$(mktemp -d) || _v_fail 'Failed to make a temporary directory'
		_s_exec rc export -r "$rev" "$repo" "$_s_tmp/x"
		if [ "$_v_rc" = 0 ] && _s_same "$_s_tmp/x" "$dest"; then
			rm -rf -- "$_s_tmp"
			_s_exit
		fi
		rm -rf -- "$_s_tmp"
	fi
	if [ -n "$check" ]; then
		[ -z "$export" ] && [ -z "$checkout" ] || r_changed=1
		_s_exit
	fi
	[ -n "$export" ] || [ -n "$checkout" ] || _s_exit
	if [ -z "$export" ]; then
		_s_exec chk checkout -r "$rev" "$repo" "$dest"
	elif [ -n "$force" ]; then
		_s_exec chk export --force -r "$rev" "$repo" "$dest"
	else
		_s_exec chk export -r "$rev" "$repo" "$dest"
	fi
	r_changed=1
	[ -z "$export" ] || _s_exit
	r_before=n
	_s_revision
	r_after=$_s_r
	_s_exit
fi
_s_exec rc info "$dest"
if [ "$_v_rc" = 0 ]; then
	[ -n "$update" ] || _s_exit
	if [ -n "$check" ]; then
		if _s_mods && [ -z "$force" ]; then _v_fail 'ERROR: modified files exist in the repository.'; fi
		_s_revision
		_s_cur=${_s_r#l=}
		_s_cur=${_s_cur%%"
"*}
		_s_exec chk info -r "$rev" "$dest"
		_s_head=$(_s_revline "$_t_d/o" 'Unable to get revision')
		r_before="s=$_s_cur" r_after="s=$_s_head"
		if awk -v a="$_s_cur" -v b="$_s_head" 'BEGIN { split(a, x, ":"); split(b, y, ":"); exit !(x[2] + 0 < y[2] + 0) }'; then
			r_changed=1
		fi
		_s_exit
	fi
	_s_files=
	_s_revision
	r_before=$_s_r
	_s_m=
	_s_mods && _s_m=1
	if [ -n "$switch" ]; then
		_s_exec chk switch --revision "$rev" "$repo" "$dest"
		_s_changes && _s_files=1
	fi
	if [ -n "$_s_m" ]; then
		[ -n "$force" ] || _v_fail 'ERROR: modified files exist in the repository.'
		_s_exec chk revert -R "$dest"
		grep -qv '^Reverted ' "$_t_d/o" && _s_files=1
	fi
	_s_exec chk update -r "$rev" "$dest"
	_s_changes && _s_files=1
elif [ -n "$in_place" ]; then
	[ -z "$check" ] || { r_changed=1; _s_exit; }
	r_before=n
	_s_exec chk checkout --force -r "$rev" "$repo" "$dest"
	_s_files=1
	if _s_mods; then
		_s_m=1
		[ -z "$force" ] || _s_exec chk revert -R "$dest"
	fi
else
	_v_fail "ERROR: $dest folder already exists, but its not a subversion repository."
fi
_s_revision
r_after=$_s_r
[ -z "$_s_files" ] && [ -z "$_s_m" ] || r_changed=1
_s_exit
