set -f
export LANG=C LC_ALL=C LC_MESSAGES=C
printf 'dev=%s\n' "$dev"
[ -e "$dev" ] || { echo done=nodev; exit 0; }
_fs_p=$PATH
for _d in /sbin /usr/sbin /usr/local/sbin; do
	case ":$_fs_p:" in *":$_d:"*) ;; *) [ -e "$_d" ] && _fs_p="$_fs_p:$_d" ;; esac
done
# _fs_bin NAME sets $_b to NAME's path as Ansible's get_bin_path finds it,
# or stops the script with fail=nobin.
_fs_bin() {
	_b=
	_ifs=$IFS
	IFS=:
	for _d in $_fs_p; do
		[ -n "$_d" ] || continue
		if [ -e "$_d/$1" ] && [ ! -d "$_d/$1" ] && [ -x "$_d/$1" ]; then _b=$_d/$1; break; fi
	done
	IFS=$_ifs
	[ -n "$_b" ] && return 0
	printf 'fail=nobin\nbin=%s\npaths=%s\n' "$1" "$_fs_p"
	exit 0
}
# _fs_do CMD... runs a command that must succeed, its output alone in
# the files _t_tail prints; a failure stops the script with fail=rc.
_fs_do() {
	: >"$_t_d/o"
	: >"$_t_d/e"
	"$@" >"$_t_d/o" 2>"$_t_d/e"
	rc=$?
	[ $rc -eq 0 ] && return 0
	printf 'fail=rc\nrc=%s\ncmd=' "$rc"
	printf '%s\t' "$@"
	echo
	_t_tail
	exit 0
}
# _fs_mp sets $mp to the first mount point of $dev ("" when unmounted).
_fs_mp() {
	_fs_bin findmnt
	mp=$("$_b" --mtab --noheadings --output TARGET --source "$dev" 2>/dev/null) || mp=
	mp=$(printf '%s\n' "$mp" | sed -n 1p)
}
_fs_bin blkid
"$_b" -c /dev/null -o value -s TYPE "$dev" >"$_t_d/bo" 2>"$_t_d/be"
brc=$?
fs=$(tr -d ' \t\n' <"$_t_d/bo")
printf 'fs=%s\n' "$fs"
if [ "$state" = absent ]; then
	[ -n "$fs" ] || { echo done=none; exit 0; }
	[ -n "$check" ] && { echo done=wiped; exit 0; }
	_fs_bin wipefs
	_fs_do "$_b" --all "$dev"
	echo done=wiped
	exit 0
fi
case $cls in
Btrfs)
	_fs_bin mkfs.btrfs
	_fs_do "$_b" --version
	_v=$(sed -n 's/.* v\([0-9.]*[0-9.]\).*/\1/p' "$_t_d/o" | sed -n 1p)
	[ -n "$_v" ] || _v=$(sed -n 's/.* v\([0-9.]*[0-9.]\).*/\1/p' "$_t_d/e" | sed -n 1p)
	if [ -z "$_v" ]; then
		forceflags=-f
		echo warnver=1
	else
		forceflags=
		printf '%s\n' "$_v" | awk -F. '{ exit !($1 > 3 || ($1 == 3 && $2 >= 12)) }' && forceflags=-f
	fi
	;;
F2fs)
	_fs_bin mkfs.f2fs
	_v=$("$_b" /dev/null 2>/dev/null | sed -n 's/.*F2FS-tools: mkfs\.f2fs Ver: \([0-9.]*\) (.*/\1/p' | sed -n 1p)
	forceflags=
	[ -n "$_v" ] && printf '%s\n' "$_v" | awk -F. '{ exit !($1 > 1 || ($1 == 1 && $2 >= 9)) }' && forceflags=-f
	;;
esac
same=
if [ -n "$fs" ]; then
	for _t in $sametypes; do [ "$fs" = "$_t" ] && same=1; done
fi
if [ -n "$same" ] && [ -z "$resize" ] && [ -z "$force" ]; then echo done=same; exit 0; fi
if [ -n "$same" ] && [ -n "$resize" ]; then
	[ -n "$grow" ] || { echo fail=nogrow; exit 0; }
	if [ -b "$dev" ]; then
		_fs_bin blockdev
		_fs_do "$_b" --getsize64 "$dev"
		dsize=$(tr -d ' \n' <"$_t_d/o")
	elif [ -f "$dev" ]; then
		dsize=$(stat -L -c %s "$dev" 2>/dev/null || wc -c <"$dev")
		dsize=$(printf '%s' "$dsize" | tr -d ' ')
	else
		echo fail=target
		exit 0
	fi
	case $cls in
	Ext*)
		_fs_bin tune2fs
		_fs_do "$_b" -l "$dev"
		fsize=$(awk -F: '
			index($0, "Block count:") { c = $2; gsub(/[ \t]/, "", c) }
			index($0, "Block size:") { s = $2; gsub(/[ \t]/, "", s) }
			c != "" && s != "" { if (c ~ /^[0-9]+$/ && s ~ /^[0-9]+$/) print c * s; exit }' "$_t_d/o")
		;;
	XFS)
		_fs_mp
		_fs_bin xfs_info
		_fs_do "$_b" "${mp:-$dev}"
		fsize=$(awk -F= '
			{ k = $1; gsub(/[ \t]/, "", k) }
			k == "data" {
				b = $2; gsub(/[ \t]/, "", b)
				split($3, w, " ")
				if (b == "bsize") s = w[1]
				if (w[2] == "blocks") { split($4, x, ","); c = x[1]; gsub(/[ \t]/, "", c) }
			}
			c != "" && s != "" { if (c ~ /^[0-9]+$/ && s ~ /^[0-9]+$/) print c * s; exit }' "$_t_d/o")
		;;
	Btrfs)
		_fs_mp
		[ -n "$mp" ] || { echo fail=mount; exit 0; }
		_fs_bin btrfs
		_fs_do "$_b" filesystem usage -b "$mp"
		fsize=$(awk '/Device size/ { print $NF; exit }' "$_t_d/o")
		;;
	F2fs)
		_fs_bin dump.f2fs
		_fs_do "$_b" "$dev"
		fsize=$(awk '
			index($0, "Info: sector size = ") { s = $5 }
			index($0, "Info: total FS sectors = ") { c = $6 }
			c != "" && s != "" { if (c ~ /^[0-9]+$/ && s ~ /^[0-9]+$/) print c * s; exit }' "$_t_d/o")
		;;
	VFAT)
		_fs_bin fatresize
		_fs_do "$_b" --info "$dev"
		fsize=$(awk 'NR > 1 { i = index($0, ":"); if (!i) next; p = substr($0, 1, i - 1); gsub(/^[ \t]+|[ \t]+$/, "", p)
			if (p == "Size" || p == "Cur size") { v = substr($0, i + 1); gsub(/[ \t]/, "", v); if (v ~ /^[0-9]+$/) print v; exit } }' "$_t_d/o")
		;;
	LVM)
		_fs_bin pvs
		_fs_do "$_b" --noheadings -o pv_size --units b --nosuffix "$dev"
		fsize=$(tr -d ' \t\n' <"$_t_d/o")
		case $fsize in '' | *[!0-9]*) fsize= ;; esac
		;;
	UFS)
		_fs_bin dumpfs
		_fs_do "$_b" "$dev"
		fsize=$(awk '
			/^fsize/ { s = $2 }
			/providersize/ { c = $NF }
			c != "" && s != "" { if (c ~ /^[0-9]+$/ && s ~ /^[0-9]+$/) print c * s; exit }' "$_t_d/o")
		;;
	esac
	if [ -z "$fsize" ]; then
		echo fail=parse
		_t_tail
		exit 0
	fi
	printf 'fsize=%s\ndsize=%s\n' "$fsize" "$dsize"
	[ "$fsize" -lt "$dsize" ] || { echo done=whole; exit 0; }
	[ -n "$check" ] && { echo done=resizing; exit 0; }
	target=$dev
	if [ -n "$mponly" ]; then
		_fs_mp
		[ -n "$mp" ] || { echo fail=mount; exit 0; }
		target=$mp
	fi
	_fs_bin "$grow"
	# shellcheck disable=SC2086
	_fs_do "$_b" $growflags "$target"
	echo done=grown
	_t_tail
	exit 0
fi
if [ -n "$fs" ] && [ -z "$force" ]; then
	printf 'fail=used\nrc=%s\n' "$brc"
	cp "$_t_d/be" "$_t_d/e"
	: >"$_t_d/o"
	_t_tail
	exit 0
fi
[ -n "$check" ] && { echo done=created; exit 0; }
_fs_bin "$mkfs"
# shellcheck disable=SC2086
_fs_do "$_b" $forceflags "$@" "$dev"
echo done=created
