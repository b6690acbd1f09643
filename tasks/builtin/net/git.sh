
r_changed= r_before= r_after= r_rurl= r_subm= r_msg= r_gdb= r_gdn= _g_mods=
_v_result() {
	echo "changed=$r_changed"
	_v_put before "$r_before"
	_v_put after "$r_after"
	echo "rurl=$r_rurl"
	echo "subm=$r_subm"
	[ -z "$r_msg" ] || _v_put rmsg "$r_msg"
	[ -z "$r_gdb" ] || _v_put gdb "$r_gdb"
	[ -z "$r_gdn" ] || _v_put gdn "$r_gdn"
}
_g_exit() {
	_v_result
	echo done=1
	exit 0
}
repo0=$TENDER_GIT_REPO url_cfg=$TENDER_GIT_URL_CFG
unset TENDER_GIT_REPO TENDER_GIT_URL_CFG
[ -n "$TENDER_GIT_PASSWORD" ] || unset TENDER_GIT_PASSWORD
if [ -n "$gitexe" ]; then G=$gitexe; else _t_need git; G=$_t_b; fi
if [ -n "$accept" ]; then
	if [ -n "$ssh_opts_set" ]; then
		case $ssh_opts in
		*"-o StrictHostKeyChecking=no"* | *"-o StrictHostKeyChecking=accept-new"*) ;;
		*) ssh_opts="$ssh_opts -o StrictHostKeyChecking=no" ;;
		esac
	else
		ssh_opts="-o StrictHostKeyChecking=no" ssh_opts_set=1
	fi
fi
if [ -n "$accept_new" ]; then
	_g_s=$(_t_need ssh; printf '%s' "$_t_b")
	case $_g_s in
	fail=*)
		_v_det=${_g_s#fail=}
		_v_fail 'Remote host is missing ssh command, so you cannot use acceptnewhostkey option.' details
		;;
	esac
	if "$_g_s" -o StrictHostKeyChecking=accept-new -V >/dev/null 2>&1 </dev/null; then
		if [ -n "$ssh_opts_set" ]; then
			case $ssh_opts in
			*"-o StrictHostKeyChecking=no"* | *"-o StrictHostKeyChecking=accept-new"*) ;;
			*) ssh_opts="$ssh_opts -o StrictHostKeyChecking=accept-new" ;;
			esac
		else
			ssh_opts="-o StrictHostKeyChecking=accept-new" ssh_opts_set=1
		fi
	else
		_v_warn "Your ssh client does not support accept_newhostkey option, therefore it cannot be used."
	fi
fi
if [ -n "$umask_err" ]; then
	_v_det=$umask_det
	[ -z "$umask_det" ] || _v_fail "$umask_err" details
	_v_fail "$umask_err"
fi
[ -z "$umask" ] || umask "$umask"
# shellcheck disable=SC2088 # a literal ~ in the path, expanded here
case $repo0 in "~") _g_r=$HOME ;; "~/"*) _g_r=$HOME${repo0#"~"} ;; *) _g_r=$repo0 ;; esac
case $_g_r in /*) repo=file://$_g_r ;; *) repo=$repo0 ;; esac
[ -n "$secret" ] || url=$repo
_t_locale
export LC_MESSAGES="$_t_loc" LC_CTYPE="$_t_loc"
if [ -n "$sep" ]; then
	_g_x=$(realpath -m -- "$sep" 2>/dev/null) || { _v_abs "$sep"; _g_x=$_v_p; }
	sep=$_g_x
fi
if [ -z "$dest" ]; then
	[ -z "$clone" ] || _v_fail 'the destination directory must be specified unless clone=no'
else
	_v_abs "$dest"
	dest=$_v_p
	_g_repo_path "$dest" "$bare" || _g_badrepo
	if [ -n "$sep" ] && [ -e "$_g_rp" ] && [ "$sep" != "$_g_rp" ]; then
		r_changed=1
		if [ -z "$check" ]; then
			_g_relocate "$sep" "$_g_rp" "$dest"
			_g_rp=$sep
		fi
	fi
	_g_cfg=$_g_rp/config
fi
_v_in "" "$G" --version
_g_ver=
[ "$_v_rc" != 0 ] || _g_ver=$(sed -n 's/^.*git version \(.*\)$/\1/p' "$_t_d/o" | tail -n 1)
if [ -n "$ssh_opts_set" ]; then _g_so="${GIT_SSH_OPTS-} $ssh_opts"; else _g_so=${GIT_SSH_OPTS-}; fi
if [ -n "$accept" ]; then
	case $_g_so in *StrictHostKeyChecking=no*) ;; *) _g_so="$_g_so -o StrictHostKeyChecking=no" ;; esac
fi
case $_g_so in *BatchMode=yes*) ;; *) _g_so="$_g_so -o BatchMode=yes" ;; esac
if [ -n "$key" ]; then
	case $_g_so in *"-i $key"*) ;; *) _g_so="$_g_so  -i $key" ;; esac
	case $_g_so in *IdentitiesOnly=yes*) ;; *) _g_so="$_g_so -o IdentitiesOnly=yes" ;; esac
fi
_g_sc=${GIT_SSH-${GIT_SSH_COMMAND-ssh}}
if [ -n "$_g_ver" ] && _v_lt "$_g_ver" 2.3.0; then
	export GIT_SSH_OPTS="$_g_so"
	printf '#!/bin/sh\n%s $GIT_SSH_OPTS "$@"\n' "$_g_sc" >"$_t_d/ssh"
	chmod 700 "$_t_d/ssh"
	export GIT_SSH="$_t_d/ssh"
else
	export GIT_SSH_COMMAND="$_g_sc $_g_so"
fi
_g_secret
if [ -n "$depth" ] && [ -n "$_g_ver" ] && _v_lt "$_g_ver" 1.9.1; then
	_v_warn "git version is too old to fully support the depth argument. Falling back to full checkouts."
	depth=
fi
r_before=n
if { [ -n "$dest" ] && [ ! -e "$_g_cfg" ]; } || { [ -z "$dest" ] && [ -z "$clone" ]; }; then
	if [ -n "$check" ] || [ -z "$clone" ]; then
		_g_remote_head "$dest" "$version" "$url" 1
		r_after="=$_g_rh"
		# tender: without clone nothing would change
		if [ -n "$clone" ]; then
			r_changed=1
			[ -z "$diff" ] || _g_diff n "$r_after"
		fi
		_g_exit
	fi
	_g_clone
elif [ -z "$update" ]; then
	_g_version
	r_before="=$_g_v" r_after="=$_g_v"
	if [ -n "$archive" ]; then
		[ -z "$check" ] || { r_changed=1; _g_exit; }
		_g_archive
	fi
	_g_exit
else
	if [ -z "$bare" ]; then
		_v_in "$dest" "$G" status --porcelain
		[ -z "$(grep -v '^??' "$_t_d/o")" ] || _g_mods=1
	fi
	_g_version
	r_before="=$_g_v"
	if [ -n "$_g_mods" ]; then
		[ -n "$force" ] || _v_fail "Local modifications exist in the destination: $dest (force=no)." result
		if [ -z "$check" ]; then
			_v_chk "$dest" "$G" reset --hard HEAD
			r_changed=1 r_msg="Local modifications exist in the destination: $dest"
		fi
	fi
	if [ -n "$check" ]; then
		if ! _g_remote_url "$dest" "$remote"; then
			r_rurl=None
		elif [ -z "$_g_ru" ]; then
			r_rurl="''"
		elif _g_url_differs "$_g_ru"; then
			r_rurl=True
		else
			r_rurl=False
		fi
		_g_cl=
		if [ "$remote" = "$repo0" ] || [ "$remote" = "file://$_g_r" ]; then _g_cl=1; fi
		_g_remote_head "$dest" "$version" "$remote" "$_g_cl"
		r_changed=
		if [ "$r_before" != "=$_g_rh" ] || [ "$r_rurl" = True ]; then r_changed=1; fi
		r_after="=$_g_rh"
		[ -z "$diff" ] || _g_diff "$r_before" "$r_after"
		_g_exit
	fi
	_g_set_remote_url
	r_rurl=$_g_set
	_g_fetch
fi
[ -n "$bare" ] || _g_switch
if [ -n "$recursive" ] && [ -z "$bare" ] && _g_sub_fetch; then
	r_subm=1
	_g_sub_update
fi
_g_version
r_after="=$_g_v"
if [ "$r_before" != "$r_after" ] || [ -n "$_g_mods" ] || [ -n "$r_subm" ] || [ "$r_rurl" = True ]; then
	r_changed=1
	[ -z "$diff" ] || _g_diff "$r_before" "$r_after"
fi
[ -z "$archive" ] || _g_archive
_g_exit
