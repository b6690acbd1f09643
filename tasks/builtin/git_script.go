package builtin

// gitFuncs are the steps of the git module's script, each the function
// of ansible-core 2.14's git module of the same name, running the same
// git commands (see gitScript for the inputs). A step that fails ends
// the script with _v_fail or _v_chk, with what ansible-core's reports.
//
// Where the repository's URL holds a password ($secret), neither git's
// command lines nor the URLs git hands its remote helpers show it: git
// is given the alias $url on its command lines and the URL without the
// password ($stripped) by configuration in its environment (for the
// alias and for the URL as the repository's configuration holds it),
// and asks for the password a credential helper that reads it from the
// environment (_g_secret). _g_fixurl writes the URL as given into the
// repository's configuration where git wrote the alias, as ansible-core's
// git leaves it.
const gitFuncs = `
_g_none() { [ -z "$1" ] || [ "$1" = 0 ]; }
_g_conf() { # KEY VALUE: configuration for every git run from now on
	if [ -n "$_g_ver" ] && ! _v_lt "$_g_ver" 2.31; then
		_g_n=${GIT_CONFIG_COUNT:-0}
		export "GIT_CONFIG_KEY_$_g_n=$1" "GIT_CONFIG_VALUE_$_g_n=$2"
		export GIT_CONFIG_COUNT=$((_g_n + 1))
	else
		_g_sq=$(printf '%s=%s' "$1" "$2" | sed "s/'/'\\\\''/g")
		export GIT_CONFIG_PARAMETERS="${GIT_CONFIG_PARAMETERS:+$GIT_CONFIG_PARAMETERS }'$_g_sq'"
	fi
}
_g_secret() {
	[ -n "$secret" ] || return 0
	_g_conf "url.$stripped.insteadOf" "$url"
	_g_conf "url.$stripped.insteadOf" "$repo"
	_g_conf credential.helper ""
	_g_conf credential.helper '!_t() { test "$1" = get && printf "password=%s\\n" "$TENDER_GIT_PASSWORD"; }; _t'
}
_g_fixurl() { # DIR REMOTE_CFG NAME
	[ -n "$secret" ] || return 0
	(
		cd "$1" || exit 1
		"$G" config --unset-all "remote.$3.url" >/dev/null 2>&1
		_g_cf=$("$G" rev-parse --git-path config) || exit 1
		printf '[remote "%s"]\n\turl = %s\n' "$2" "$url_cfg" >>"$_g_cf"
	) || _v_fail "Failed to write the URL of remote $3 in $1"
}
_g_repo_path() { # DEST BARE: get_repo_path, in _g_rp; else _v_det and status 1
	if [ -n "$2" ]; then _g_rp=$1; else _g_rp=$1/.git; fi
	[ -f "$_g_rp" ] || return 0
	_v_cat "$_g_rp"
	_g_data=$_v_c
	while :; do
		case $_g_data in *[[:space:]]) _g_data=${_g_data%?} ;; *) break ;; esac
	done
	case $_g_data in
	*"gitdir: "*) ;;
	*) _v_det='not enough values to unpack (expected 2, got 1)'; return 1 ;;
	esac
	[ -z "${_g_data%%"gitdir: "*}" ] || { _v_det='.git file has invalid git dir reference format'; return 1; }
	_g_gd=${_g_data#*"gitdir: "}
	case $_g_gd in /*) _g_rp=$_g_gd ;; *) _g_rp=$1/$_g_gd ;; esac
	[ -d "$_g_rp" ] || { _v_det="$_g_rp is not a directory"; return 1; }
}
_g_badrepo() {
	_v_fail 'Current repo does not have a valid reference to a separate Git dir or it refers to the invalid path' details
}
_g_relocate() { # NEW OLD WORKTREE: relocate_repo
	[ -e "$1" ] && _v_fail "Separate-git-dir path $1 already exists."
	[ -n "$3" ] || return 0
	if ! mv -- "$2" "$1" 2>"$_t_d/e" || ! printf 'gitdir: %s' "$1" 2>>"$_t_d/e" >"$3/.git"; then
		[ -e "$1" ] && mv -- "$1" "$2" 2>/dev/null
		_v_cat "$_t_d/e"
		_v_fail "Unable to move git dir. $_v_c"
	fi
	r_gdb=$2 r_gdn=$1
}
_g_version() { # get_version: rev-parse HEAD in dest, in _g_v
	_v_in "$dest" "$G" rev-parse HEAD
	_g_version_of "$_t_d/o"
}
_g_branches() { # git branch -a, one stripped line each in $_t_d/br
	_v_in "$1" "$G" branch --no-color -a
	if [ "$_v_rc" != 0 ]; then
		_v_cat "$_t_d/o"
		_v_fail "Could not determine branch data - received $_v_c" stdout stderr
	fi
	sed 's/^[[:space:]]*//; s/[[:space:]]*$//; /^$/d' "$_t_d/o" >"$_t_d/br"
}
_g_not_branch() {
	_g_branches "$1"
	grep '^\* ' "$_t_d/br" | grep -q -e 'no branch' -e 'detached from' -e 'detached at'
}
_g_is_lbranch() { # DEST BRANCH
	_g_branches "$1"
	grep -qxF -e "$2" -e "* $2" "$_t_d/br"
}
_g_head_branch() { # DEST REMOTE BARE: get_head_branch, in _g_hb ("None" when unknown)
	_g_repo_path "$1" "$3" || _g_badrepo
	_g_hf=$_g_rp/HEAD
	if _g_not_branch "$1"; then _g_hf=$_g_rp/refs/remotes/$2/HEAD; fi
	_g_hb=None
	[ -e "$_g_hf" ] || return 0
	_g_l=
	IFS= read -r _g_l <"$_g_hf" || [ -n "$_g_l" ] || return 0
	case $_g_l in *"refs/remotes/$2"*) _g_l=${_g_l%%"refs/remotes/$2"*}${_g_l#*"refs/remotes/$2"} ;; esac
	_g_l=${_g_l##* }
	case $_g_l in */*/*) _g_l=${_g_l#*/}; _g_l=${_g_l#*/} ;; */*) _g_l=${_g_l#*/} ;; esac
	_g_hb=$_g_l
}
_g_is_rbranch() { # DEST REMOTE VERSION
	_v_chk "$1" "$G" ls-remote "$2" -h "refs/heads/$3"
	grep -qF -- "$3" "$_t_d/o"
}
_g_is_rtag() { # DEST REMOTE VERSION
	_v_chk "$1" "$G" ls-remote "$2" -t "refs/tags/$3"
	grep -qF -- "$3" "$_t_d/o"
}
_g_remote_head() { # DEST VERSION REMOTE CLONING: get_remote_head, in _g_rh
	_g_tag=
	_g_cwd=$1
	[ -n "$4" ] && _g_cwd=
	if [ "$2" = HEAD ]; then
		if [ -n "$4" ]; then
			set -- "$1" "$2" "$3" -h HEAD
		else
			_g_head_branch "$1" "$3" "$bare"
			set -- "$1" "$2" "$3" -h "refs/heads/$_g_hb"
		fi
	elif _g_is_rbranch "$1" "$3" "$2"; then
		set -- "$1" "$2" "$3" -h "refs/heads/$2"
	elif _g_is_rtag "$1" "$3" "$2"; then
		_g_tag=1
		set -- "$1" "$2" "$3" -t "refs/tags/$2*"
	else
		_g_rh=$2
		return 0
	fi
	_v_chk "$_g_cwd" "$G" ls-remote "$3" "$4" "$5"
	[ -s "$_t_d/o" ] || _v_fail "Could not determine remote revision for $2" stdout stderr rc
	_g_rh=$(V=$2 T=$_g_tag awk '
		{ l[NR] = $0 }
		END {
			v = ENVIRON["V"]; sel = ""
			if (ENVIRON["T"] != "") for (i = 1; i <= NR; i++) {
				if (length(l[i]) >= length(v) + 3 && substr(l[i], length(l[i]) - length(v) - 2) == v "^{}") { sel = l[i]; break }
				if (length(l[i]) >= length(v) && substr(l[i], length(l[i]) - length(v) + 1) == v) sel = l[i]
			}
			if (sel == "") for (i = 1; i <= NR; i++) if (sel == "" && split(l[i], w) > 0) sel = l[i]
			split(sel, w); print w[1]
		}' "$_t_d/o")
}
_g_remote_url() { # DEST REMOTE: get_remote_url, in _g_ru; status 1 for None
	if [ -n "$secret" ]; then
		# git would answer the URL it rewrote
		_v_in "$1" "$G" config --get "remote.$2.url"
		_g_version_of "$_t_d/o"
		[ "$_g_v" != "$repo" ] || { _g_ru=$repo; return 0; }
	fi
	_v_in "$1" "$G" ls-remote --get-url "$2"
	[ "$_v_rc" = 0 ] || return 1
	_g_version_of "$_t_d/o"
	_g_ru=$_g_v
}
_g_version_of() { # FILE: its text without trailing newlines, in _g_v
	_g_v=$(cat "$1"; echo .)
	_g_v=${_g_v%.}
	while :; do case $_g_v in *"
") _g_v=${_g_v%?} ;; *) break ;; esac; done
}
_g_unfrack() { # PATH: unfrackgitpath, in _g_uf
	case $1 in "~") set -- "$HOME" ;; "~/"*) set -- "$HOME${1#"~"}" ;; esac
	_g_uf=$(realpath -m -- "$1" 2>/dev/null) || { _v_abs "$1"; _g_uf=$_v_p; }
}
_g_url_differs() { # URL: differs from $repo, also once unfracked
	[ "$1" = "$repo" ] && return 1
	_g_unfrack "$1"; _g_a=$_g_uf
	_g_unfrack "$repo"
	[ "$_g_a" != "$_g_uf" ]
}
_g_set_remote_url() { # set_remote_url, in _g_set (True or False)
	_g_set=False
	if _g_remote_url "$dest" "$remote"; then
		_g_url_differs "$_g_ru" || return 0
		_g_had=1
	else
		_g_had=
	fi
	_v_in "$dest" "$G" remote set-url "$remote" "$url"
	if [ "$_v_rc" != 0 ]; then
		_v_cat "$_t_d/o"; _g_o=$_v_c
		_v_cat "$_t_d/e"
		_v_fail "Failed to set a new url $url for $remote: $_g_o $_v_c"
	fi
	_g_fixurl "$dest" "$remote_cfg" "$remote"
	[ -n "$_g_had" ] && _g_set=True
	return 0
}
_g_verify() { # VERSION: verify_commit_sign
	_v_in "$dest" "$G" for-each-ref refs/tags/ --format '%(objecttype):%(refname:short)'
	if [ "$_v_rc" != 0 ]; then
		_v_cat "$_t_d/o"
		_v_fail "Could not determine tag data - received $_v_c" stdout stderr
	fi
	_g_sub=verify-commit
	sed -n 's/^[[:space:]]*tag:\(.*\)/\1/p' "$_t_d/o" | sed 's/[[:space:]]*$//' | grep -qxF -- "$1" && _g_sub=verify-tag
	if [ -n "$wl" ]; then _v_in "$dest" "$G" "$_g_sub" "$1" --raw; else _v_in "$dest" "$G" "$_g_sub" "$1"; fi
	[ "$_v_rc" = 0 ] || _v_fail "Failed to verify GPG signature of commit/tag \"$1\"" stdout stderr rc
	[ -n "$wl" ] || return 0
	_g_fp=$(awk 'NF >= 2 && $2 == "VALIDSIG" { print (NF == 11 ? "None" : $3); exit }' "$_t_d/e")
	[ -n "$_g_fp" ] || _g_fp=None
	printf '%s\n' "$wl" | grep -qxF -- "$_g_fp" ||
		_v_fail "The gpg_whitelist does not include the public key \"$_g_fp\" for this commit" stdout stderr rc
}
`

// gitScript is the git module's main, as ansible-core 2.14's: its inputs
// are shell variables set by the module (gitVars) and, for what may hold
// a password, TENDER_GIT_REPO (the repo parameter), TENDER_GIT_URL_CFG
// (it quoted for git's configuration) and TENDER_GIT_PASSWORD in the
// environment; its steps
// gitFuncs and gitApplyFuncs. It prints what _v_result prints (changed=,
// blobs before and after, rurl=, subm=, blobs rmsg, gdb and gdn), warning
// blobs and a diff blob, then done=1; or a failure (_v_fail, _v_chk,
// fail= from _t_need, noexe= from _v_in).
//
// r_before and r_after hold "" (not in the result), "n" (null) or "="
// and the commit.
const gitScript = `
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
`
