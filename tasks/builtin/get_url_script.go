package builtin

// getURLProbe looks at get_url's dest before anything is fetched. Inputs:
// dest, algo and sum (the checksum asked for, "" for none), force, mode,
// owner, group, _t_check. It prints isdir=1 or exists=1 with sha1, digest
// (of algo) and mtime; when the file is there, force is off and its
// digest is the one asked for, it fixes the attributes and prints
// verdict=exists with changed; otherwise verdict=fetch. Then the _t_info
// of dest.
const getURLProbe = attrFuncs + shFuncs + `
if [ -d "$dest" ]; then echo isdir=1; echo verdict=fetch; exit 0; fi
if [ -e "$dest" ]; then
	echo exists=1
	echo "sha1=$(_t_sum sha1 "$dest")"
	d=
	[ -n "$algo" ] && d=$(_t_sum "$algo" "$dest") && echo "digest=$d"
	echo "mtime=$(stat -c %Y -- "$dest")"
	if [ -z "$force" ] && [ -n "$sum" ] && [ "$d" = "$sum" ]; then
		_t_attrs "$dest" "$mode" "$owner" "$group"
		echo verdict=exists; echo "changed=$_t_changed"; _t_info "$dest"; exit 0
	fi
fi
echo verdict=fetch
_t_info "$dest"
`

// getURLPlace puts a downloaded file in place. Inputs: dest, tmp (the
// uploaded file beside dest, "" when the content is known to be equal),
// want (its sha1), algo, sum, backup, mode, owner, group. It prints
// checksum_dest (when dest existed), backup_file, verdict=badsum with
// digest (the file did not match the checksum asked for and was removed)
// or verdict=done with changed, md5sum and the _t_info of dest.
const getURLPlace = attrFuncs + shFuncs + prepareFunc + `
[ -n "$tmp" ] && trap 'rm -f "$tmp"' EXIT
cur=
if [ -e "$dest" ]; then cur=$(_t_sum sha1 "$dest"); echo "checksum_dest=$cur"; fi
if [ -n "$tmp" ]; then
	if [ "$cur" != "$want" ]; then
		_t_prepare "$dest" "$tmp" "$backup"
		mv -f -- "$tmp" "$dest" || _t_fail "failed to copy $tmp to $dest"
		_t_changed=1
	fi
fi
if [ -n "$sum" ]; then
	d=$(_t_sum "$algo" "$dest")
	if [ "$d" != "$sum" ]; then rm -f -- "$dest"; echo verdict=badsum; echo "digest=$d"; exit 0; fi
fi
_t_attrs "$dest" "$mode" "$owner" "$group"
echo verdict=done; echo "changed=$_t_changed"
echo "md5sum=$(_t_sum md5 "$dest")"
_t_info "$dest"
`

// prepareFunc is _t_prepare DEST TMP BACKUP: before TMP replaces DEST,
// back DEST up when BACKUP is not empty (printing backup_file) and give
// TMP DEST's mode and owner, or a new file's default mode when DEST does
// not exist. copy and get_url share it.
const prepareFunc = `
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
}
`
