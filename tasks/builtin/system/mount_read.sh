# Inputs: $p the mount point, $srcw the source (both as the task gives
# them, expanded), $fstab, $mkfstab (create a missing fstab, but in
# check mode, $check set), $readfstab,
# $listv (run mount -v). Prints path=, src=, exists=, ismount=, the
# mount and umount programs, fstab_err= when the fstab cannot be made,
# fstab_read= when it cannot be read, and sections: mountinfo (or
# nomountinfo=1), mountv, then fstab (its bytes, last).
printf 'path=%s\nsrc=%s\n' "$p" "$srcw"
printf 'mount_bin=%s\numount_bin=%s\n' "$(command -v mount)" "$(command -v umount)"
if [ -e "$p" ]; then echo exists=1; fi
# A mount point: not a link, on another device than its parent or the
# same inode as it (the root).
_m_ismount() {
	[ -L "$p" ] && return 1
	_s1=$(stat -c '%d %i' -- "$p" 2>/dev/null) || return 1
	_par=$(realpath -m -- "$p/.." 2>/dev/null) || _par=$(readlink -f -- "$p/.." 2>/dev/null) || return 1
	_s2=$(stat -c '%d %i' -- "$_par" 2>/dev/null) || return 1
	[ "${_s1% *}" != "${_s2% *}" ] || [ "${_s1#* }" = "${_s2#* }" ]
}
if _m_ismount; then echo ismount=1; fi
_nofstab=
if [ -n "$mkfstab" ] && [ ! -e "$fstab" ] && [ -n "$check" ]; then
	# Check mode creates nothing: a missing fstab reads as empty.
	_nofstab=1
elif [ -n "$mkfstab" ] && [ ! -e "$fstab" ]; then
	_d=$(dirname -- "$fstab")
	[ -e "$_d" ] || mkdir -p -- "$_d" 2>/dev/null
	if ! (: >>"$fstab") 2>"$_t_d/fe"; then
		printf 'fstab_err=%s\n' "$(LC_ALL=C sed -n '$s/.*: //p' "$_t_d/fe")"
	fi
fi
if [ -n "$readfstab" ] && [ -z "$_nofstab" ]; then
	_e=$(_t_open_err "$fstab")
	[ -d "$fstab" ] && _e='Is a directory'
	[ -z "$_e" ] || printf 'fstab_read=%s\n' "$_e"
fi
if [ -r /proc/self/mountinfo ]; then
	printf '\n--mountinfo--\n'
	cat /proc/self/mountinfo
else
	echo nomountinfo=1
	printf '\n--mountinfo--\n'
fi
printf '\n--mountv--\n'
if [ -n "$listv" ] && command -v mount >/dev/null 2>&1; then
	LC_ALL=C mount -v 2>/dev/null
fi
printf '\n--fstab--\n'
if [ -n "$readfstab" ] && [ -f "$fstab" ] && [ -r "$fstab" ]; then cat -- "$fstab"; fi
