
# Inputs: $fmt, $dest, $how (archive: the names on stdin, relative to
# $root; compress: the file $src; "" writes nothing), $single (one
# source file: a failed delete ends the task), $check, $mode,
# $owner, $group, and "$@" the sources to delete afterwards ("f:PATH" a
# file, "d:PATH" a tree). Prints sigfail= when dest is no tar (format
# tar, as Ansible's module stops there), fail=/failpath=/crash= when
# writing or deleting fails, written=1, changed=, _t_attrs's lines and
# dest's _t_info as pi_ lines.
_xw=$(mktemp -d) || exit 1
trap 'rm -rf "$_xw"' EXIT
_t_check=$check
_xneed() { # program: present, or the task fails naming it
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "fail=Failed to find required executable \"$1\" in paths: $PATH"; exit 0
}
# shellcheck disable=SC2120 # called with a file by name ($_xc) and on a pipe
_xz() { # the compressor of $fmt, on stdin or $1
	case $fmt in gz) gzip -c ${1+"$1"} ;; bz2) bzip2 -c ${1+"$1"} ;; xz) xz -c ${1+"$1"} ;; *) cat ${1+"$1"} ;; esac
}
_xgz() { # gzip of the file $1 with the header Python's gzip.open($dest) writes
	_gn=${dest##*/}; _gn=${_gn%.gz}; _gt=$(date +%s)
	if [ -n "$_gn" ]; then printf '\037\213\010\010'; else printf '\037\213\010\000'; fi
	for _gs in 0 8 16 24; do
		# shellcheck disable=SC2059 # an octal escape made for printf
		printf "\\$(printf %o $(((_gt >> _gs) & 255)))"
	done
	printf '\002\377'
	[ -z "$_gn" ] || printf '%s\000' "$_gn"
	gzip -9 -n -c "$1" | tail -c +11
}
_xdz() { # the decompressor of $fmt, stdin to stdout
	case $fmt in gz) gzip -dc ;; bz2) bzip2 -dc ;; xz) xz -dc ;; *) cat ;; esac
}
_xzipsig() { # "crc name" per member of the zip $1, none when it is no zip
	_zs=$(wc -c <"$1") || return 0
	_zn=65557; [ "$_zs" -ge "$_zn" ] || _zn=$_zs
	_ze=$(tail -c "$_zn" "$1" | od -An -v -tu1 | awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function le(i) { return b[i] + b[i+1] * 256 + b[i+2] * 65536 + b[i+3] * 16777216 }
	END { for (i = n - 22; i >= 0; i--) if (b[i] == 80 && b[i+1] == 75 && b[i+2] == 5 && b[i+3] == 6) { print le(i+16), le(i+12); exit } }')
	[ -n "$_ze" ] || return 0
	# shellcheck disable=SC2086 # offset and size
	set -- "$1" $_ze
	tail -c +$(($2 + 1)) "$1" | head -c "$3" | od -An -v -tu1 | awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
	function le(i) { return b[i] + b[i+1] * 256 + b[i+2] * 65536 + b[i+3] * 16777216 }
	END { p = 0
		while (p + 46 <= n && b[p] == 80 && b[p+1] == 75 && b[p+2] == 1 && b[p+3] == 2) {
			nl = b[p+28] + b[p+29] * 256; el = b[p+30] + b[p+31] * 256; cl = b[p+32] + b[p+33] * 256
			s = le(p+16) ":"; for (j = 0; j < nl; j++) s = s " " b[p+46+j]
			print s; p += 46 + nl + el + cl
		} }' | LC_ALL=C sort -u
}
_xsig() { # what Ansible compares of the archive $1: its members or content
	if [ "$fmt" = zip ]; then _xzipsig "$1"; return 0; fi
	{ _xdz <"$1" 2>/dev/null || : >"$_xw/baddz"; } | tar -tv --full-time -f - >"$_xw/l" 2>/dev/null || : >"$_xw/badtar"
	if [ ! -e "$_xw/badtar" ]; then LC_ALL=C sort -u "$_xw/l"; rm -f "$_xw/l"; return 0; fi
	rm -f "$_xw/l" "$_xw/badtar"
	# no tar: the decompressed content's checksum, as Ansible falls back to
	[ "$fmt" != tar ] || { echo "sigfail=tar is not a valid format"; exit 0; }
	[ ! -e "$_xw/baddz" ] || { rm -f "$_xw/baddz"; return 0; }
	echo "crc $(_xdz <"$1" 2>/dev/null | cksum)"
}
_xoserr() { # the OSError Python meets opening $dest to write
	if [ -d "$dest" ]; then echo "Is a directory"
	elif [ ! -d "$(dirname -- "$dest")" ]; then echo "No such file or directory"
	else echo "Permission denied"; fi
}
case $fmt in gz) _xneed gzip ;; bz2) _xneed bzip2 ;; xz) _xneed xz ;; esac
[ ! -d "$dest" ] || { echo "crash=init $(_xoserr)"; exit 0; }
[ "$fmt" = zip ] || [ "$how" = compress ] || _xneed tar
if [ -e "$dest" ] && [ -r "$dest" ] && [ ! -d "$dest" ]; then
	_xold=$(_xsig "$dest"); _xhad=1
	case $_xold in sigfail=*) printf '%s\n' "$_xold"; exit 0 ;; esac
fi
if [ -z "$check" ] && [ -n "$how" ]; then
	[ "$fmt" != zip ] || { _xneed zip; _xneed od; }
	_xsize=0; [ ! -e "$dest" ] || _xsize=$(wc -c <"$dest")
	if [ "$how" = compress ]; then
		(: >"$dest") 2>/dev/null || { echo "wfail=$(_xoserr)"; exit 0; }
		if [ "$fmt" = gz ]; then _xc=_xgz; else _xc=_xz; fi
		$_xc "$src" 2>"$_xw/err" >"$dest" || { printf 'fail=Unable to write to compressed file: %s\n' "$(tr '\n' ' ' <"$_xw/err")"; exit 0; }
	elif [ "$fmt" = zip ]; then
		cat >"$_xw/names"
		if [ -s "$_xw/names" ]; then
			(cd "$root" && zip -q -X "$_xw/new.zip" -@ <"$_xw/names") >"$_xw/err" 2>&1 ||
				{ printf 'fail=Errors when writing archive at %s: %s\n' "$dest" "$(tr '\n' ' ' <"$_xw/err")"; exit 0; }
		else
			printf 'PK\005\006\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >"$_xw/new.zip"
		fi
		(cat "$_xw/new.zip" >"$dest") 2>/dev/null || { echo "crash=open $(_xoserr)"; exit 0; }
	else
		(: >"$dest") 2>/dev/null || { echo "crash=open $(_xoserr)"; exit 0; }
		{ tar -c --format=pax --pax-option=delete=atime,delete=ctime --no-recursion --verbatim-files-from -C "$root" -f - -T - 2>"$_xw/err" || : >"$_xw/bad"; } | _xz >"$dest"
		if [ -e "$_xw/bad" ]; then
			printf 'fail=Errors when writing archive at %s: %s\n' "$dest" "$(sed 's/^tar: //' "$_xw/err" | tr '\n' ' ')"; exit 0
		fi
	fi
	echo written=1
	_xnew=$(_xsig "$dest")
	if [ -n "$_xhad" ]; then
		[ "$_xold" = "$_xnew" ] || _t_changed=1
	else
		[ "$_xsize" = "$(wc -c <"$dest")" ] || _t_changed=1
	fi
	_xerr=
	for _xr in "$@"; do
		_xp=${_xr#?:}
		case $_xr in
		f:*) [ ! -e "$_xp" ] || rm -f -- "$_xp" 2>"$_xw/err" || {
			[ -z "$single" ] || { printf 'rmfail=%s\n' "$(sed -n '1s/.*: //p' "$_xw/err")"; exit 0; }
			_xerr=1; printf 'rmerr=%s\n' "$_xp"
		} ;;
		d:*) if [ -L "$_xp" ] || ! rm -rf -- "$_xp" 2>/dev/null; then _xerr=1; printf 'rmerr=%s\n' "$_xp"; fi ;;
		esac
	done
	[ -z "$_xerr" ] || { echo rmfailed=1; exit 0; }
fi
if [ -e "$dest" ]; then
	echo exists=1
	_t_attrs "$dest" "$mode" "$owner" "$group"
fi
echo "changed=${_t_changed:-0}"
_t_info "$dest" | sed 's/^/pi_/'
