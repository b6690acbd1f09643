
# _t_replace moves $1 onto $2 in place; $2 may be a link to a directory,
# which mv alone would move $1 into.
_t_replace() {
	mv -fT -- "$1" "$2" 2>/dev/null && return
	[ -L "$2" ] && rm -f -- "$2"
	mv -f -- "$1" "$2"
}
# _t_state P sets $prev to what P is (no subshell: the tests are builtins;
# a file's link count from _t_stat, whose reading _t_attrs may reuse).
_t_state() {
	if [ -L "$1" ]; then prev="link"
	elif [ -d "$1" ]; then prev="directory"
	elif [ -e "$1" ]; then
		_t_stat "$1"
		if [ "${_t_snlink:-1}" -gt 1 ]; then prev="hard"; else prev="file"; fi
	else prev="absent"; fi
}
# _t_rec gives everything under the directory $1 the asked attributes;
# followed, a link's target gets them too, and a linked directory's
# contents (links relative to the link's directory; $2 bounds the depth
# of link cycles).
_t_rec() {
	find "$1" -mindepth 1 | while IFS= read -r _p; do
		_t_attrs "$_p" "$mode" "$owner" "$group"
		if [ -n "$follow" ] && [ -L "$_p" ] && [ -e "$_p" ] && [ "$2" -lt 40 ]; then
			_lt=$(readlink -- "$_p")
			case $_lt in /*) ;; *) _lt=$(dirname -- "$_p")/$_lt ;; esac
			[ -d "$_lt" ] && _t_rec "$_lt" $(($2 + 1))
			_t_attrs "$_lt" "$mode" "$owner" "$group"
		fi
	done
}
_t_state "$path"
echo "prev=$prev"
case $path in *"
"*) ;; *) echo "expanded=$path" ;; esac # as the host expanded it (~, $VAR)
# In check mode an owner or group the host does not know yet is a warning
# (an earlier task of a real run may create it).
if [ -n "$_t_check" ] && [ "$state" != absent ]; then
	for _w in "user|passwd|uid|$owner" "group|group|gid|$group"; do
		_n=${_w#*|*|*|}; [ -n "$_n" ] || continue
		_k=${_w%%|*}; _r=${_w#*|}; _db=${_r%%|*}; _id=${_r#*|}; _id=${_id%%|*}
		getent "$_db" "$_n" >/dev/null 2>&1 && continue
		case $_n in *[!0-9]*) _by= ;; *) _by="with $_id " ;; esac
		echo "warn_$_k=failed to look up $_k $_by$_n. Create $_k up to this point in real play"
	done
fi
# Failures report the path's attributes, as Ansible's add_path_info does.
_t_failed() { echo verdict=failed; echo "msg=$*"; _t_info "$path"; exit "${_t_failrc:-0}"; }
if [ -z "$state" ]; then
	if [ "$prev" != absent ]; then state=$prev
	elif [ -n "$recurse" ]; then state=directory
	else state='file'; fi
	[ "$state" = hard ] && state='file'
	# The state the path has (or file) must still be a directory's.
	[ -z "$recurse" ] || [ "$state" = directory ] || _t_failed "recurse option requires state to be 'directory'"
fi
echo "state=$state"
target=$path
case $state in
absent)
	if [ "$prev" != absent ]; then
		_t_changed=1
		if [ "$prev" = directory ]; then
			find "$path" -mindepth 1 -type d | sed 's/^/subdir=/'
			find "$path" -mindepth 1 ! -type d | sed 's/^/subfile=/'
		fi
		[ -n "$_t_check" ] || rm -rf -- "$path" 2>/dev/null || _t_fail "rmtree failed: could not remove $path"
	fi
	echo verdict=done; echo "changed=$_t_changed"; _t_info "$path"; exit 0 ;;
file)
	if [ "$prev" = link ] && [ -n "$follow" ]; then
		target=$(readlink -f -- "$path")
		_t_state "$target"
	fi
	case $prev in file|hard) ;; *) _t_failed "file ($path) is $prev, cannot continue" ;; esac
	# nothing changed $target since _t_state read it
	_t_fresh=1 ;;
directory)
	if [ "$prev" = link ] && [ -n "$follow" ] && [ -d "$path" ]; then
		target=$(readlink -f -- "$path"); prev=directory
	fi
	case $prev in
	absent)
		_t_changed=1
		if [ -z "$_t_check" ]; then
			# create each missing component, giving each the asked attributes
			_missing= _p=$path
			while [ -n "$_p" ] && [ "$_p" != / ] && [ "$_p" != . ] && ! _t_exists "$_p"; do
				_missing="$_p
$_missing"; _p=$(dirname -- "$_p")
			done
			_oldifs=$IFS; IFS='
'
			for _p in $_missing; do
				if ! _e=$(LC_ALL=C mkdir -- "$_p" 2>&1) && ! [ -d "$_p" ]; then
					# the C library's reason, for Python's OSError text
					echo "oserr=${_e##*: }"; echo "oserrpath=$_p"
					_t_fail "There was an issue creating $_p as requested"
				fi
				[ "$_p" = "$path" ] || _t_attrs "$_p" "$mode" "$owner" "$group" >/dev/null
			done
			IFS=$_oldifs
		fi ;;
	directory) ;;
	*) _t_failed "$path already exists as a $prev" ;;
	esac ;;
touch)
	if [ "$prev" = absent ]; then
		_t_changed=1
		[ -n "$_t_check" ] || _t_rmonfail=$path
		if [ -z "$_t_check" ] && ! touch -- "$path" 2>/dev/null; then
			if [ -d "$(dirname -- "$path")" ]; then _t_failed "Error, could not touch target: [Errno 13] Permission denied: b'$path'"
			else _t_failed "Error, could not touch target: [Errno 2] No such file or directory: b'$path'"; fi
		fi
	else
		[ "$atime$mtime" = preservepreserve ] || _t_changed=1
	fi
	echo "before_atime=$(stat -c %X -- "$path" 2>/dev/null)"; echo "before_mtime=$(stat -c %Y -- "$path" 2>/dev/null)"
	if [ -z "$_t_check" ] && [ "$atime$mtime" = nownow ]; then
		# both to now in one call: a writer who is not the owner may do that
		touch -c -- "$path" || _t_fail "Error while updating modification or access time"
	elif [ -z "$_t_check" ]; then
		for _w in a m; do
			eval "_v=\$${_w}time"
			case $_v in preserve) ;; now|'') touch -c -$_w -- "$path" ;; *) touch -c -$_w -t "$_v" -- "$path" ;; esac ||
				_t_fail "Error while updating modification or access time"
		done
	fi ;;
link|hard)
	# A link without src, followed, keeps the target it has (Ansible reads
	# it back); with no link there, there is nothing to point at.
	# An existing link without src and not followed stays as it is.
	_t_keep=
	if [ "$state" = link ] && [ -z "$src" ]; then
		[ -n "$follow" ] && [ -L "$path" ] && [ -e "$path" ] && src=$(readlink -- "$path")
		if [ -z "$src" ]; then
			[ "$prev" = link ] || _t_failed "src is required for creating new symlinks"
			_t_keep=1
		fi
	fi
	if [ -n "$_t_keep" ]; then :; else
	case $src in /*) abs=$src ;; *) if [ -d "$path" ] && [ ! -L "$path" ]; then abs=$path/$src; else abs=$(dirname -- "$path")/$src; fi ;; esac
	if [ "$state" = link ]; then
		[ -n "$force" ] || _t_exists "$abs" || _t_failed "src file does not exist, use \"force=yes\" if you really want to create the link: $abs"
		case $prev in
		directory)
			[ -n "$force" ] || _t_failed "refusing to convert from directory to symlink for $path"
			[ -z "$(ls -A -- "$path")" ] || _t_failed "the directory $path is not empty, refusing to convert it" ;;
		file|hard) [ -n "$force" ] || _t_failed "refusing to convert from $prev to symlink for $path" ;;
		esac
		if [ "$prev" = link ]; then
			_old=$(readlink -- "$path")
			[ "$_old" = "$src" ] || { _t_changed=1; echo "before_src=$_old"; }
		else _t_changed=1; fi
		if [ -n "$_t_changed" ] && [ -z "$_t_check" ]; then
			[ "$prev" = directory ] && rmdir -- "$path"
			_tmp="$path.tender-$$"
			ln -s -- "$src" "$_tmp" && _t_replace "$_tmp" "$path" || { rm -f -- "$_tmp"; _t_fail "Error while linking: $path"; }
		fi
	else
		_t_exists "$abs" || _t_failed "src does not exist"
		case $prev in
		absent) _t_changed=1 ;;
		link) _old=$(readlink -- "$path"); [ "$_old" = "$src" ] || { _t_changed=1; echo "before_src=$_old"; } ;;
		hard|file|directory)
			if [ "$(stat -c %d:%i -- "$path")" != "$(stat -c %d:%i -- "$abs")" ]; then
				_t_changed=1
				if [ -z "$force" ]; then
					[ "$prev" = hard ] && _t_failed "Cannot link, different hard link exists at destination"
					_t_failed "Cannot link, $prev exists at destination"
				fi
			fi ;;
		esac
		if [ -n "$_t_changed" ] && [ -z "$_t_check" ]; then
			_tmp="$path.tender-$$"
			ln -- "$abs" "$_tmp" && _t_replace "$_tmp" "$path" || { rm -f -- "$_tmp"; _t_fail "Error while linking: $path"; }
		fi
	fi
	fi ;;
esac
if [ "$state" = link ] && [ -n "$follow" ] && [ -L "$path" ]; then
	# Followed, a link's attributes are its target's; a link to nothing
	# has none to set.
	if [ -e "$path" ]; then target=$(readlink -f -- "$path")
	else target=; echo "warning=Cannot set fs attributes on a non-existent symlink target. follow should be set to False to avoid this."; fi
fi
_t_stby=
if [ -n "$target" ] && _t_exists "$target"; then
	[ -z "${_t_fresh-}" ] || [ "$_t_stp" != "$target" ] || _t_streuse=1
	_t_attrs "$target" "$mode" "$owner" "$group"
	if [ -n "$recurse" ] && [ -d "$target" ] && [ ! -L "$target" ]; then
		_rc=$(_t_rec "$target" 0)
		case $_rc in *failed=1*) echo "$_rc"; exit "${_t_failrc:-0}" ;; ?*) _t_changed=1 ;; esac
	fi
fi
# access_time/modification_time on any other state: a time that differs
# from the current one (to the nanosecond) is set; "now" always is.
if [ "$state" != touch ] && [ "$state" != absent ] && [ "$atime$mtime" != preservepreserve ] &&
	[ -n "$target" ] && _t_exists "$target"; then
	for _w in a m; do
		eval "_v=\$${_w}time"
		case $_v in preserve | '') continue ;; esac
		[ "$_w" = a ] && _f=%.9X || _f=%.9Y
		_old=$(stat -c "$_f" -- "$target")
		case $_v in
		now) _new=$(date +%s.%N) ;;
		*) _new=$(date -d "$(echo "$_v" | sed -E 's/^(....)(..)(..)(..)(..)\.(..)$/\1-\2-\3 \4:\5:\6/')" +%s.000000000) ;;
		esac
		[ "$_v" != now ] && [ "$_new" = "$_old" ] && continue
		_t_changed=1
		echo "before_${_w}time=$_old"; echo "after_${_w}time=$_new"
		if [ -z "$_t_check" ]; then
			case $_v in now) touch -c -$_w -- "$target" ;; *) touch -c -$_w -t "$_v" -- "$target" ;; esac ||
				_t_fail "Error while updating modification or access time"
		fi
	done
fi
echo verdict=done
echo "changed=$_t_changed"
if [ "$state" = touch ] && [ -z "$_t_check" ]; then
	echo "after_atime=$(stat -c %X -- "$path")"; echo "after_mtime=$(stat -c %Y -- "$path")"
fi
# Nothing but times changed $path since _t_attrs read it, unless recurse
# (a link under it may lead back to it).
if [ -z "$recurse" ]; then _t_info_after "$path"; else _t_info "$path"; fi
[ -L "$path" ] && echo "target=$(readlink -- "$path")"
exit 0
