
_t_snap() { # with --diff: the old content is sent back when small enough
	[ -n "$diff" ] || return 0
	echo before_exists=1
	if [ "$(stat -c %s -- "$dest")" -gt 104448 ]; then echo before_large=1; else _t_before=1; fi
}
# _t_cursum sets cur to dest's sha1, as far as comparing it with $want
# goes: for a small content the controller sent as $wantc (wantn bytes),
# a file whose size differs gets "", and one the shell reads back whole
# $want when it is wantc and "" when not, with no program but the stat
# _t_attrs reuses.
_t_cursum() {
	_t_fastc=
	if [ -n "$wantn" ] && [ -z "$guard" ] && [ -f "$dest" ] && ! [ -L "$dest" ] && _t_stat "$dest"; then
		if [ "$_t_ssize" != "$wantn" ]; then
			cur=
			return 0
		fi
		if _t_readsmall "$dest" "$_t_ssize"; then
			if [ "$_t_sa" = "$wantc" ]; then cur=$want _t_fastc=1; else cur=; fi
			return 0
		fi
	fi
	_t_sumv cur sha1 "$dest"
}
[ -n "$remote" ] && [ -d "$source" ] && _t_remotetree
case $dest in
*/) [ -n "$base" ] || _t_fail "can not use content with a dir as dest"
	if [ ! -d "$dest" ] && [ -z "$_t_check" ]; then mkdir -p -- "$dest" || _t_fail "could not create $dest"; fi
	isdir=1 ;;
esac
if [ -n "$isdir" ] || [ -d "$dest" ]; then
	[ -n "$base" ] || _t_fail "can not use content with a dir as dest"
	dest=${dest%/}/$base
fi
# follow: a link at dest stays; the file it points at gets the content
if [ -n "$follow" ] && [ -L "$dest" ] && [ -e "$dest" ]; then dest=$(readlink -f -- "$dest"); fi
echo "dest=$dest"
if [ -n "$remote" ]; then
	[ -r "$source" ] || _t_fail "Source $source not found"
	[ -f "$source" ] || _t_fail "Cannot copy invalid source '$source': not a file"
	_t_sumv want sha1 "$source"
	[ "$mode" = preserve ] && mode=$(stat -c %a -- "$source")
fi
cur= exists=
if _t_exists "$dest"; then
	exists=1
	if [ -z "$force" ]; then echo verdict=noforce; exit 0; fi
	_t_cursum
fi
if [ -n "$guard" ] && [ "$cur" != "$expect" ]; then _t_fail "$dest changed while it was being edited; run again"; fi
if [ "$cur" != "$want" ]; then
	_t_changed=1
	echo content_changed=1
	if [ -n "$probe" ] && [ -z "$_t_check" ]; then
		[ -d "$(dirname -- "$dest")" ] || _t_fail "Destination directory $(dirname -- "$dest") does not exist"
		echo verdict=upload; exit 0
	fi
	if [ -n "$_t_check" ]; then
		echo verdict=done; echo changed=1
		[ -n "$exists" ] && _t_snap
		if [ -n "$_t_before" ]; then echo --before--; cat -- "$dest"; fi
		exit 0
	fi
	dir=$(dirname -- "$dest")
	if [ -n "$mkdirs" ] && [ ! -d "$dir" ]; then mkdir -p -- "$dir" || _t_fail "Error creating $dir"; fi
	[ -d "$dir" ] || _t_fail "Destination directory $dir does not exist"
	if [ "$unsafe" = env ]; then
		# unsafe_writes not given: the task's environment decides.
		case $(printf %s "${ANSIBLE_UNSAFE_WRITES-}" | tr 'A-Z' 'a-z') in
		y | yes | on | 1 | true | t | 1.0) unsafe=1 ;;
		*) unsafe= ;;
		esac
	fi
	# A directory that takes no new file (immutable) still lets
	# unsafe_writes write the file in place: stage it elsewhere.
	tmp=$(mktemp "$dir/.tender-XXXXXXXX" 2>/dev/null) ||
		{ [ -n "$unsafe" ] && tmp=$(mktemp "${TMPDIR:-/tmp}/.tender-XXXXXXXX"); } ||
		_t_fail "could not create a temporary file in $dir"
	trap 'rm -f "$tmp" "$tmp.out" "$tmp.err"; [ -n "$moved" ] && rm -f "$source"; printf %s "${__tender_cs-}"' EXIT
	echo "src=$tmp"
	# a small content came as $wantc, and no stdin with it
	if [ "$source" = - ] && [ -n "$wantn" ]; then printf %s "$wantc" >"$tmp"
	elif [ "$source" = - ]; then cat >"$tmp"; elif [ -n "$moved" ]; then mv -f -- "$source" "$tmp"; else cp -- "$source" "$tmp"; fi || _t_fail "could not write $tmp"
	[ "$(_t_sum sha1 "$tmp")" = "$want" ] || _t_fail "Copied file does not match the expected checksum. Transfer failed."
	if [ -n "$validate" ]; then
		(eval "$validate") >"$tmp.out" 2>"$tmp.err" </dev/null
		vrc=$?
		if [ $vrc -ne 0 ]; then
			echo verdict=invalid; echo "rc=$vrc"
			echo --stdout--; cat "$tmp.out"; echo; echo --stderr--; cat "$tmp.err"; exit "${_t_failrc:-0}"
		fi
	fi
	if [ -n "$exists" ]; then
		_t_snap
	fi
	_t_prepare "$dest" "$tmp" "$backup"
	[ -n "$_t_before" ] && cp -- "$dest" "$tmp.out"
	# unsafe_writes: a destination that cannot be replaced (a bind mount
	# answers EBUSY) is written in place instead, as Ansible does.
	mv -f -- "$tmp" "$dest" 2>/dev/null || { [ -n "$unsafe" ] && cat -- "$tmp" >"$dest" && rm -f -- "$tmp"; } ||
		_t_fail "could not move $tmp to $dest"
fi
[ "$mode" = preserve ] && mode=
# unchanged since _t_cursum's stat: _t_attrs needs no other, nor
# _t_info_after when nothing changed (as after a _t_owns that changed
# nothing)
[ -n "$_t_fastc" ] && _t_streuse=1
_t_exists "$dest" && _t_attrs "$dest" "$mode" "$owner" "$group"
[ -n "$_t_fastc" ] && [ -z "$_t_changed" ] && [ "$_t_stp" = "$dest" ] && _t_stby=owns
echo verdict=done
echo "changed=$_t_changed"
_t_info_after "$dest"
echo "checksum=$want"
if [ -n "$remote" ] || [ "$cur" != "$want" ]; then echo "md5sum=$(_t_sum md5 "$dest")"; fi
if [ -n "$_t_before" ]; then echo --before--; cat "$tmp.out"; fi
