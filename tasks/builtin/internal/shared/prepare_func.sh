
_t_prepare() {
	if _t_exists "$1"; then
		if [ -n "$3" ]; then
			_bf="$1.$$.$(date +%Y-%m-%d@%H:%M:%S)~"
			cp -p -- "$1" "$_bf" || _t_fail "Could not make backup of $1 to $_bf"
			echo "backup_file=$_bf"
		fi
		chmod "$(stat -c %a -- "$1")" "$2" && chown "$(stat -c %u:%g -- "$1")" "$2" 2>/dev/null
	else
		chmod "$(printf %o $((0666 & ~0$(umask))))" "$2"
	fi
	# SELinux: DEST's context, or a new file's default, as Ansible's atomic move keeps it
	_t_seput "$2" "$(_t_sekeep "$1")"
}
