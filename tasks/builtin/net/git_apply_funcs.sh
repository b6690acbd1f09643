
_g_clone() {
	_g_dd=${dest%/*}
	[ -n "$_g_dd" ] || _g_dd=/
	mkdir -p -- "$_g_dd" 2>/dev/null
	_g_bt=
	if _g_is_rbranch "$dest" "$url" "$version" || _g_is_rtag "$dest" "$url" "$version"; then _g_bt=1; fi
	if [ -n "$bare" ]; then set -- clone --bare; else set -- clone --origin "$remote"; fi
	if ! _g_none "$depth"; then
		if [ "$version" = HEAD ] || [ -n "$refspec" ]; then
			set -- "$@" --depth "$depth"
		elif [ -n "$_g_bt" ]; then
			set -- "$@" --depth "$depth" --branch "$version"
		else
			_v_warn "Ignoring depth argument. Shallow clones are only available for HEAD, branches, tags or in combination with refspec."
		fi
	fi
	[ -z "$reference" ] || set -- "$@" --reference "$reference"
	if [ -n "$single" ]; then
		[ -n "$_g_ver" ] || _v_fail "Cannot find git executable at $G"
		if _v_lt "$_g_ver" 1.7.10; then
			_v_warn "git version '$_g_ver' is too old to use 'single-branch'. Ignoring."
		else
			set -- "$@" --single-branch
			[ -z "$_g_bt" ] || set -- "$@" --branch "$version"
		fi
	fi
	_g_sfb=
	if [ -n "$sep" ]; then
		[ -n "$_g_ver" ] || _v_fail "Cannot find git executable at $G"
		if _v_lt "$_g_ver" 1.7.5; then _g_sfb=1; else set -- "$@" "--separate-git-dir=$sep"; fi
	fi
	_v_chk "$_g_dd" "$G" "$@" "$url" "$dest"
	if [ -n "$bare" ]; then _g_fixurl "$dest" origin origin; else _g_fixurl "$dest" "$remote_cfg" "$remote"; fi
	[ -z "$_g_sfb" ] || _g_relocate "$sep" "$dest/.git" "$dest"
	if [ -n "$bare" ] && [ "$remote" != origin ]; then
		_v_chk "$dest" "$G" remote add "$remote" "$url"
		_g_fixurl "$dest" "$remote_cfg" "$remote"
	fi
	if [ -n "$refspec" ]; then
		set -- fetch
		_g_none "$depth" || set -- "$@" --depth "$depth"
		_v_chk "$dest" "$G" "$@" "$remote" "$refspec"
	fi
	[ -z "$verify" ] || _g_verify "$version"
}
_g_fetch() {
	_g_set_remote_url
	_g_rs1= _g_rs2= _g_rs3= _g_any= _g_dep= _g_tags= _g_old=
	if ! _g_none "$depth"; then
		_g_head_branch "$dest" "$remote" ""
		if [ -n "$refspec" ]; then
			_g_rs1=$refspec _g_any=1
		elif [ "$version" = HEAD ]; then
			[ "$_g_hb" = None ] || _g_rs1=$_g_hb
			_g_any=1
		elif _g_is_rbranch "$dest" "$url" "$version"; then
			[ "$_g_hb" = "$version" ] || _g_rs1="+refs/heads/$version:refs/heads/$version"
			_g_rs2="+refs/heads/$version:refs/remotes/$remote/$version" _g_any=1
		elif _g_is_rtag "$dest" "$url" "$version"; then
			_g_rs1="+refs/tags/$version:refs/tags/$version" _g_any=1
		fi
		_g_dep=$_g_any
	fi
	if _g_none "$depth" || [ -z "$_g_any" ]; then
		if [ -n "$bare" ]; then
			_g_rs1='+refs/heads/*:refs/heads/*' _g_rs2='+refs/tags/*:refs/tags/*'
		elif [ -n "$_g_ver" ] && _v_lt "$_g_ver" 1.9; then
			_g_old=1 _g_rs1='+refs/tags/*:refs/tags/*'
		else
			_g_tags=1
		fi
		_g_rs3=$refspec
	fi
	if [ -n "$_g_old" ]; then
		_v_in "$dest" "$G" fetch "$remote"
		[ "$_v_rc" = 0 ] || _g_fetch_failed
	fi
	set -- fetch
	[ -z "$_g_dep" ] || set -- "$@" --depth "$depth"
	[ -z "$_g_tags" ] || set -- "$@" --tags
	[ -z "$force" ] || set -- "$@" --force
	set -- "$@" "$remote"
	for _g_x in "$_g_rs1" "$_g_rs2" "$_g_rs3"; do [ -z "$_g_x" ] || set -- "$@" "$_g_x"; done
	_v_in "$dest" "$G" "$@"
	[ "$_v_rc" = 0 ] || _g_fetch_failed
}
_g_fetch_failed() {
	_v_cat "$_t_d/o"
	_g_o=$_v_c
	_v_cat "$_t_d/e"
	_v_fail "Failed to download remote objects and refs: $_g_o $_v_c" argv
}
_g_switch() {
	if [ "$version" = HEAD ]; then
		_g_head_branch "$dest" "$remote" ""
		_g_br=$_g_hb
		_v_in "$dest" "$G" checkout --force "$_g_br"
		[ "$_v_rc" = 0 ] || _v_fail "Failed to checkout branch $_g_br" stdout stderr rc
		set -- reset --hard "$remote/$_g_br" --
	elif _g_is_rbranch "$dest" "$remote" "$version"; then
		if ! _g_none "$depth" && ! _g_is_lbranch "$dest" "$version"; then
			_v_in "$dest" "$G" fetch "--depth=$depth" "$remote" "+refs/heads/$version:refs/heads/$version" \
				"+refs/heads/$version:refs/remotes/$remote/$version"
			[ "$_v_rc" = 0 ] || _v_fail "Failed to fetch branch from remote: $version" stdout stderr rc
		fi
		if ! _g_is_lbranch "$dest" "$version"; then
			set -- checkout --track -b "$version" "$remote/$version"
		else
			_v_in "$dest" "$G" checkout --force "$version"
			[ "$_v_rc" = 0 ] || _v_fail "Failed to checkout branch $version" stdout stderr rc
			set -- reset --hard "$remote/$version"
		fi
	else
		set -- checkout --force "$version"
	fi
	_v_cmd="$G $*"
	_v_in "$dest" "$G" "$@"
	if [ "$_v_rc" != 0 ]; then
		[ "$version" = HEAD ] && _v_fail "Failed to checkout branch $_g_br" stdout stderr rc cmd
		_v_fail "Failed to checkout $version" stdout stderr rc cmd
	fi
	[ -z "$verify" ] || _g_verify "$version"
}
_g_sub_versions() { # VERSION: get_submodule_versions, name=sha lines in _g_sv
	_v_in "$dest" "$G" submodule foreach "$G" rev-parse "$1"
	[ "$_v_rc" = 0 ] || _v_fail 'Unable to determine hashes of submodules' stdout stderr rc
	_g_sv=$(awk '
		function trim(s) { sub(/^[ \t\r\f\v]+/, "", s); sub(/[ \t\r\f\v]+$/, "", s); return s }
		bad { next }
		substr($0, 1, 10) == "Entering '\''" { name = substr($0, 11, length($0) - 11); pend = 1; next }
		length(trim($0)) == 40 && pend { print name "=" trim($0); pend = 0; next }
		{ print "!Unable to parse submodule hash line: " trim($0); bad = 1 }
		END { if (!bad && pend) print "!Unable to find hash for submodule: " name }' "$_t_d/o")
	case $_g_sv in *"
!"*) _v_fail "${_g_sv##*"
!"}" ;; "!"*) _v_fail "${_g_sv#!}" ;; esac
}
_g_sub_fetch() { # submodules_fetch: status 0 when the submodules change
	[ -e "$dest/.gitmodules" ] || return 1
	_g_sc=
	while IFS= read -r _g_l || [ -n "$_g_l" ]; do
		[ -z "$_g_sc" ] || break
		case $_g_l in *[![:space:]]*) ;; *) continue ;; esac
		_g_t=${_g_l#"${_g_l%%[![:space:]]*}"}
		case $_g_t in path*) ;; *) continue ;; esac
		_g_p=${_g_l#*=}
		_g_p=${_g_p#"${_g_p%%[![:space:]]*}"}
		_g_p=${_g_p%"${_g_p##*[![:space:]]}"}
		[ -e "$dest/$_g_p/.git" ] || _g_sc=1
	done <"$dest/.gitmodules"
	[ -z "$_g_sc" ] || return 0
	_g_sub_versions HEAD
	_g_begin=$_g_sv
	_v_chk "$dest" "$G" submodule foreach "$G" fetch
	if [ -n "$track" ]; then
		_g_sub_versions "$remote/master"
		[ "$_g_begin" != "$_g_sv" ]
		return
	fi
	_v_chk "$dest" "$G" submodule status
	grep -q '^[^ ]' "$_t_d/o"
}
_g_sub_update() { # submodule_update
	_v_in "$dest" "$G" submodule update --help
	_g_rem=
	if grep -F 'git submodule [--quiet] update ' "$_t_d/e" | tail -n 1 | tr -d '[]' | tr '|\t' '  ' |
		tr ' ' '\n' | grep -qx -e --remote; then
		_g_rem=1
	fi
	[ -e "$dest/.gitmodules" ] || return 0
	_v_chk "$dest" "$G" submodule sync
	set -- submodule update --init --recursive
	[ -z "$_g_rem" ] || [ -z "$track" ] || set -- "$@" --remote
	[ -z "$force" ] || set -- "$@" --force
	_v_in "$dest" "$G" "$@"
	if [ "$_v_rc" != 0 ]; then
		_v_cat "$_t_d/o"
		_g_o=$_v_c
		_v_cat "$_t_d/e"
		_v_fail "Failed to init/update submodules: $_g_o$_v_c"
	fi
}
_g_archive() { # create_archive
	_g_b=${archive##*/}
	_g_s=${_g_b#"${_g_b%%[!.]*}"}
	case $_g_s in *.*) _g_ext=.${_g_s##*.} ;; *) _g_ext= ;; esac
	case $_g_ext in
	.zip) _g_fmt=zip ;; .gz) _g_fmt=tar.gz ;; .tar) _g_fmt=tar ;; .tgz) _g_fmt=tgz ;;
	*)
		_v_det="Please specify archive as filename with extension. File extension can be one of ['tar', 'tar.gz', 'zip', 'tgz']"
		_v_fail "Unable to get file extension from archive file name : $archive" details
		;;
	esac
	_g_name=${repo##*/}
	while :; do case $_g_name in *.git*) _g_name=${_g_name%%.git*}${_g_name#*.git} ;; *) break ;; esac; done
	if [ -e "$archive" ]; then
		_g_tmp=$(mktemp -d) || _v_fail "Failed to make a temporary directory"
		_g_git_archive "$_g_tmp/$_g_name.$_g_fmt"
		if cmp -s -- "$_g_tmp/$_g_name.$_g_fmt" "$archive"; then
			rm -rf -- "$_g_tmp"
			return 0
		fi
		if ! mv -f -- "$_g_tmp/$_g_name.$_g_fmt" "$archive" 2>"$_t_d/e"; then
			rm -rf -- "$_g_tmp"
			_v_cat "$_t_d/e"
			_v_det="Error occurred while moving : $_v_c"
			_v_fail "Failed to move $_g_tmp/$_g_name.$_g_fmt to $archive" details
		fi
		rm -rf -- "$_g_tmp"
	else
		_g_git_archive "$archive"
	fi
	r_changed=1
}
_g_git_archive() { # OUT: git_archive
	_g_out=$1
	set -- archive --format "$_g_fmt" --output "$_g_out"
	[ -z "$prefix_set" ] || set -- "$@" --prefix "$prefix"
	_v_in "$dest" "$G" "$@" "$version"
	if [ "$_v_rc" != 0 ]; then
		_v_cat "$_t_d/e"
		_v_det="Git archive command failed to create archive $_g_out using $dest directory.Error: $_v_c"
		_v_fail "Failed to perform archive operation" details
	fi
}
_g_diff() { # BEFORE AFTER, as r_before and r_after hold them: get_diff, in blob diff
	if [ "$1" = n ]; then
		_v_put diff ">> Newly checked out ${2#=}"
		return 0
	fi
	[ "$1" != "$2" ] || return 0
	_g_b=${1#=} _g_a=${2#=}
	if [ -n "$check" ]; then
		# the objects the diff needs, under refs that are deleted again:
		# check mode changes no ref and no URL
		_v_in "$dest" "$G" fetch --no-tags "$url" '+refs/heads/*:refs/tender-diff/heads/*' '+refs/tags/*:refs/tender-diff/tags/*'
		_v_in "$dest" "$G" for-each-ref --format='delete %(refname)' refs/tender-diff/
		(cd "$dest" && "$G" update-ref --stdin) <"$_t_d/o" >/dev/null 2>&1
	fi
	_v_in "$dest" "$G" diff "$_g_b" "$_g_a"
	if [ "$_v_rc" = 0 ] && [ -s "$_t_d/o" ]; then
		_t_blob diff "$_t_d/o"
	elif [ "$_v_rc" = 0 ]; then
		_v_put diff ">> No visual differences between $_g_b and $_g_a"
	elif [ -s "$_t_d/e" ]; then
		_v_cat "$_t_d/e"
		_v_put diff ">> Failed to get proper diff between $_g_b and $_g_a:
>> $_v_c"
	else
		_v_put diff ">> Failed to get proper diff between $_g_b and $_g_a"
	fi
}
