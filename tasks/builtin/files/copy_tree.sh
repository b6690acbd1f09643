# Brings a directory copy's tree on the host into line in one pass. The
# positional parameters are the plan, one record after another:
#   d REL              a directory that must exist
#   f REL SHA1 MODE    a file that must have that content and mode
#   l REL TARGET       a symbolic link that must point at TARGET
# (REL relative to $root). Inputs: root; dmode (directory_mode), owner
# and group, each empty when not asked; force, non-empty to replace a
# file whose content differs; _t_check, non-empty in check mode.
# Prints put<N>=<mode> for the Nth file record when that file must be
# sent (with the mode it has, or 644 when it is new) and changed=1 when
# anything else changed or would change.
_t_n=0
while [ $# -gt 1 ]; do
	p="$root/$2"
	case $1 in
	d)
		if [ ! -d "$p" ]; then
			_t_changed=1
			[ -n "$_t_check" ] || mkdir -p -- "$p" || _t_fail "could not create $p"
		fi
		if [ -d "$p" ]; then _t_attrs "$p" "$dmode" "$owner" "$group" >/dev/null; fi
		shift 2 ;;
	f)
		if ! _t_exists "$p"; then
			echo "put$_t_n=644"
		elif [ "$(_t_sum sha1 "$p")" = "$3" ]; then
			_t_attrs "$p" "$4" "$owner" "$group" >/dev/null
		elif [ -n "$force" ]; then
			echo "put$_t_n=$(stat -c %a -- "$p")"
		fi
		_t_n=$((_t_n + 1))
		shift 4 ;;
	l)
		# as the file module's state=link with force and no follow
		t=$3
		if [ ! -L "$p" ] || [ "$(readlink -- "$p")" != "$t" ]; then
			_t_changed=1
			if [ -z "$_t_check" ]; then
				if [ -d "$p" ] && [ ! -L "$p" ]; then
					rmdir -- "$p" 2>/dev/null || _t_fail "the directory $p is not empty, refusing to convert it"
				fi
				ln -sfn -- "$t" "$p" || _t_fail "Error while linking: $p"
			fi
		fi
		if [ -n "$owner$group" ] && [ -L "$p" ]; then _t_attrs "$p" '' "$owner" "$group" >/dev/null; fi
		shift 3 ;;
	*)
		_t_fail "tender: a bad tree copy record: $1" ;;
	esac
done
echo "changed=$_t_changed"
