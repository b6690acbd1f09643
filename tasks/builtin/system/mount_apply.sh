# Inputs: $p the mount point; $mkdirs: create it, a directory at a time;
# $write: put $new in $fstab (after a backup when $backup); $action:
# umount, absent (umount when $mounted, then rmdir), mount, remount or
# ""; $restore: on a failed mount, put $old back. _m_mount and
# _m_remount (defined before) run the mount commands with _m_do.
# Prints backup_file=, rc= and fail= (mkdir with err= and at=, umount,
# rmdir with err=, mount, remount, remount_opts), then _t_tail's output
# of the last command run.
_m_do() { "$@" >"$_t_d/o" 2>"$_t_d/e"; rc=$?; return $rc; }
_m_fail() { echo "fail=$1"; echo "rc=$rc"; _t_tail; exit 0; }
: >"$_t_d/made"
if [ -n "$mkdirs" ] && [ ! -e "$p" ]; then
	_rest=${p#"${p%%[!/]*}"}
	_rest=${_rest%"${_rest##*[!/]}"}
	_cur=
	while :; do
		_c=${_rest%%/*}
		case $p in
		/*) _cur=$_cur/$_c ;;
		*) if [ -z "$_cur" ]; then _cur=$_c; else _cur=$_cur/$_c; fi ;;
		esac
		if [ ! -e "$_cur" ]; then
			if LC_ALL=C mkdir -- "$_cur" 2>"$_t_d/me"; then
				printf '%s\n' "$_cur" | cat - "$_t_d/made" >"$_t_d/made2" && mv "$_t_d/made2" "$_t_d/made"
			elif [ ! -d "$_cur" ]; then
				echo fail=mkdir
				printf 'err=%s\n' "$(LC_ALL=C sed -n '$s/.*: //p' "$_t_d/me")"
				printf 'at=%s\n' "$_cur"
				exit 0
			fi
		fi
		case $_rest in */*) _rest=${_rest#*/} ;; *) break ;; esac
	done
fi
_m_write() {
	if [ -n "$backup" ] && [ -e "$fstab" ]; then
		_b="$fstab.$$.$(date +%Y-%m-%d@%H:%M:%S)~"
		cp -p -- "$fstab" "$_b" && printf 'backup_file=%s\n' "$_b"
	fi
	printf '%s' "$1" >"$fstab"
}
_m_undo() {
	[ -z "$restore" ] || _m_write "$old" >/dev/null 2>&1
	while IFS= read -r _d; do rmdir -- "$_d" 2>/dev/null; done <"$_t_d/made"
}
if [ -n "$write" ]; then
	_m_write "$new" || { echo fail=write; exit 0; }
fi
rc=0
case $action in
umount)
	_m_do "$umount_bin" "$p" || _m_fail umount
	;;
absent)
	if [ -n "$mounted" ]; then _m_do "$umount_bin" "$p" || _m_fail umount; fi
	if [ -e "$p" ] && ! LC_ALL=C rmdir -- "$p" 2>"$_t_d/re"; then
		echo fail=rmdir
		printf 'err=%s\n' "$(LC_ALL=C sed -n '$s/.*: //p' "$_t_d/re")"
		exit 0
	fi
	;;
mount)
	_m_mount || { _m_undo; _m_fail mount; }
	;;
remount)
	if ! _m_remount; then
		[ -z "$remount_opts" ] || { echo fail=remount_opts; exit 0; }
		_m_do "$umount_bin" "$p" && _m_mount
	fi
	if [ "$rc" != 0 ]; then
		[ -z "$remounted" ] || _m_fail remount
		_m_undo
		_m_fail mount
	fi
	;;
esac
echo "rc=$rc"
