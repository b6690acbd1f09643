
_t_fail() { echo verdict=failed; printf 'msg=%s\n' "$(printf %s "$*" | tr '\n' ' ')"; exit 0; }
export LANG=C LC_ALL=C LC_MESSAGES=C LANGUAGE=C
tmp=$(mktemp -d) || _t_fail "could not create a temporary directory"
trap 'rm -rf "$tmp"; [ -n "$uploaded" ] && rm -f "$src"' EXIT
[ -d "$dest" ] || { echo nodest=1; _t_fail "dest '$dest' must be an existing dir"; }
[ -e "$src" ] || _t_fail "Source '$src' does not exist"
[ -r "$src" ] || _t_fail "Source '$src' not readable"
[ -s "$src" ] || _t_fail "Invalid archive '$src', the file is 0 bytes"
IFS='
'
set -f
# exclude and include take globs (Python's fnmatch, where * also matches
# a /); tar's excludes lose a trailing /, zip's keep it.
_t_excluded() {
	# shellcheck disable=SC2254
	for _x in $excludes; do [ -n "$_t_zip" ] || _x=${_x%/}; case $1 in $_x) return 0 ;; esac; done
	return 1
}
# _t_included prints a zip member once for each include it matches, as
# Ansible lists it (tar lists only the included members itself).
_t_included() {
	# shellcheck disable=SC2254
	for _x in $includes; do case $1 in $_x) printf '%s\n' "$1" ;; esac; done
}
# Ansible's handlers, tried in its order: ZipArchive (unzip and zipinfo),
# ZipZArchive (unzip -Z), then GNU tar with -z, none, -j, -J and zstd.
# _t_why keeps the reason (stdin) one could not take the archive, once
# each, as Ansible's set of reasons.
# (A pipeline's function runs in a subshell: the files count the reasons.)
_t_why() {
	cat >"$tmp/r"
	_n=1
	while [ -e "$tmp/why.$_n" ]; do cmp -s "$tmp/why.$_n" "$tmp/r" && return 0; _n=$((_n + 1)); done
	mv "$tmp/r" "$tmp/why.$_n"
}
handler= z=
unzipbin=$(command -v unzip) zipinfobin=$(command -v zipinfo)
for h in ZipArchive ZipZArchive; do
	if [ -z "$unzipbin" ] || { [ $h = ZipArchive ] && [ -z "$zipinfobin" ]; }; then
		_m=
		[ -z "$unzipbin" ] && _m=unzip
		if [ $h = ZipArchive ]; then [ -z "$zipinfobin" ] && _m="${_m:+$_m' or '}zipinfo"; else _m="$_m' or 'unzip"; fi
		printf "Unable to find required '%s' binary in the path." "$_m" | _t_why
		continue
	fi
	if ! "$unzipbin" -l "$src" >/dev/null 2>"$tmp/e"; then
		{ printf 'Command "%s" could not handle archive: ' "$unzipbin"; cat "$tmp/e"; } | _t_why
		continue
	fi
	if [ $h = ZipZArchive ] && ! "$unzipbin" -Z 2>"$tmp/e" | grep -qi zipinfo; then
		{ printf 'Command "unzip -Z" could not handle archive: '; cat "$tmp/e"; } | _t_why
		continue
	fi
	"$unzipbin" -Z1 "$src" >"$tmp/list" 2>/dev/null
	handler=$h
	break
done
if [ -z "$handler" ]; then
	tarbin=$(command -v gtar || command -v tar)
	if [ -z "$tarbin" ]; then
		printf "Unable to find required 'gtar' or 'tar' binary in the path" | _t_why
	else
		_v=$("$tarbin" --version 2>/dev/null)
		case $_v in tar*GNU*) tartype=gnu ;; bsdtar*) tartype=bsd ;; *) tartype=None ;; esac
		if [ $tartype != gnu ]; then
			printf 'Command "%s" detected as tar type %s. GNU tar required.' "$tarbin" "$tartype" | _t_why
			tarbin=
		fi
	fi
	if [ -n "$tarbin" ]; then
		for z in -z "" -j -J --use-compress-program=zstd; do
			set -- --list -C "$dest"
			[ -n "$z" ] && set -- "$@" "$z"
			[ -n "$opts" ] && set -- "$@" --show-transformed-names $opts
			for x in $excludes; do set -- "$@" "--exclude=${x%/}"; done
			set -- "$@" -f "$src" $includes
			if ! (cd "$dest" && "$tarbin" "$@") >"$tmp/list" 2>"$tmp/e"; then
				{ printf 'Command "%s" could not handle archive: Unable to list files in the archive: ' "$tarbin"; cat "$tmp/e"; } | _t_why
			elif [ ! -s "$tmp/list" ]; then
				printf 'Command "%s" found no files in archive. Empty archive files are not supported.' "$tarbin" | _t_why
			else
				case $z in -z) handler=TgzArchive ;; "") handler=TarArchive ;; -j) handler=TarBzipArchive ;; -J) handler=TarXzArchive ;; *) handler=TarZstdArchive ;; esac
				break
			fi
		done
	fi
fi
if [ -z "$handler" ]; then
	echo verdict=nohandler
	_n=1
	while [ -e "$tmp/why.$_n" ]; do echo "why=$(wc -c <"$tmp/why.$_n")"; _n=$((_n + 1)); done
	echo --output--
	_n=1
	while [ -e "$tmp/why.$_n" ]; do cat "$tmp/why.$_n"; _n=$((_n + 1)); done
	exit 0
fi
echo "handler=$handler"
case $handler in Zip*) _t_zip=1 ;; *) _t_zip= ;; esac
sed 's|^/||' "$tmp/list" | while IFS= read -r f; do
	if [ -n "$_t_zip" ] && [ -n "$includes" ]; then _t_included "$f"
	else _t_excluded "$f" || printf '%s\n' "$f"; fi
done >"$tmp/files"

if [ -n "$_t_zip" ]; then
	w=$(mktemp -d "$dest/.tender-XXXXXXXX") || _t_fail "could not create a temporary directory in $dest"
	set -- -q -o "$src"
	for x in $excludes; do set -- "$@" -x "$x"; done
	unzip "$@" $includes -d "$w" >/dev/null 2>&1
	unarchived=1
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		case $f in
		*/) [ -d "$dest/$f" ] || unarchived= ;;
		*) if [ ! -e "$dest/$f" ] || ! cmp -s "$w/$f" "$dest/$f"; then unarchived=
			elif [ -z "$mode" ] && [ "$(stat -c %a "$w/$f")" != "$(stat -c %a "$dest/$f")" ]; then unarchived=; fi ;;
		esac
	done <"$tmp/files"
	rm -rf "$w"
else
	# The options --diff and --extract share, one per line.
	common=$z
	[ -n "$opts" ] && common="$common
--show-transformed-names
$opts"
	[ -n "$owner" ] && common="$common
--owner=$owner"
	[ -n "$group" ] && common="$common
--group=$group"
	[ -n "$keep_newer" ] && common="$common
--keep-newer-files"
	for x in $excludes; do common="$common
--exclude=${x%/}"; done
	set -- --diff -C "$dest" $common -f "$src" $includes
	[ -n "$_t_check" ] && { echo verdict=gtarcheck; exit 0; }
	(cd "$dest" && "$tarbin" "$@") >"$tmp/d" 2>&1
	uid=$(id -u)
	unarchived=1
	while IFS= read -r l; do
		case $l in
		*': : Warning: Cannot stat: No such file or directory') continue ;;
		*': Uid differs') [ "$uid" = 0 ] && [ -z "$owner" ] && unarchived= ;;
		*': Gid differs') [ "$uid" = 0 ] && [ -z "$group" ] && unarchived= ;;
		*': Mode differs') [ -z "$mode" ] && unarchived= ;;
		*': Mod time differs'|*': Warning: Cannot stat: No such file or directory'|*': Invalid owner'*|*': Invalid group'*) unarchived= ;;
		esac
	done <"$tmp/d"
fi
if [ -n "$_t_check" ]; then
	echo verdict=done; [ -z "$unarchived" ] && echo changed=1; echo outlen=0; echo errlen=0
	_t_info "$dest"; echo --output--; cat "$tmp/files"; exit 0
fi
: >"$tmp/out"; : >"$tmp/err"
if [ -z "$unarchived" ]; then
	_t_changed=1
	if [ -n "$_t_zip" ]; then
		# Ansible's order: unzip -o OPTS SRC [-x EXCLUDES] [INCLUDES] -d DEST
		set -- "$(command -v unzip)" -o $opts "$src"
		[ -n "$excludes" ] && set -- "$@" -x $excludes
		set -- "$@" $includes -d "$dest"
	else
		set -- "$tarbin" --extract -C "$dest" $common -f "$src" $includes
	fi
	for w in "$@"; do printf 'cmd=%s\n' "$w"; done
	(cd "$dest" && "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	echo extracted=1; echo "rc=$rc"
	if [ $rc -ne 0 ]; then
		echo verdict=failed; echo "msg=failed to unpack $src to $dest"
		echo "outlen=$(wc -c <"$tmp/out")"; echo --output--; cat "$tmp/out" "$tmp/err"; exit 0
	fi
fi
tops=
while IFS= read -r f; do
	[ -n "$f" ] || continue
	_t_exists "$dest/$f" && _t_attrs "$dest/$f" "$mode" "$owner" "$group" >/dev/null
	case $f in */*) t=${f%%/*}; case "
$tops" in *"
$t
"*) ;; *) tops="$tops$t
" ;; esac ;; esac
done <"$tmp/files"
for t in $tops; do _t_exists "$dest/$t" && _t_attrs "$dest/$t" "$mode" "$owner" "$group" >/dev/null; done
echo verdict=done; echo "changed=$_t_changed"
echo "outlen=$(wc -c <"$tmp/out")"; echo "errlen=$(wc -c <"$tmp/err")"
_t_info "$dest"
echo --output--; cat "$tmp/out" "$tmp/err" "$tmp/files"
