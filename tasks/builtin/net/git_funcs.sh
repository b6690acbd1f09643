
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
	# shellcheck disable=SC2088 # a literal ~ in the path, expanded here
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
