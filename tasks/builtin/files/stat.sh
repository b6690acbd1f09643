
# Missing: exists=0; any other error of lstat (a path through a file:
# Not a directory) fails with its strerror, as Ansible's stat module.
_t_exists "$p" || {
	e=$(LC_ALL=C stat -- "$p" 2>&1 >/dev/null)
	case $e in "" | *": No such file or directory") echo exists=0; exit 0 ;; esac
	echo "${e##*: }" >&2
	exit 1
}
case $p in *"
"*) ;; *) echo "path=$p" ;; esac # as the host expanded it (~, $VAR)
L=; [ -n "$follow" ] && L=-L
if [ -n "$follow" ] && [ ! -e "$p" ]; then echo exists=0; exit 0; fi
stat $L -c 'rawmode=%f
uid=%u
gid=%g
pw_name=%U
gr_name=%G
size=%s
inode=%i
dev=%d
nlink=%h
atime=%x
mtime=%y
ctime=%z
blocks=%b
block_size=%o
major=%t
minor=%T' -- "$p" || exit 1
[ -r "$p" ] && echo readable=1
[ -w "$p" ] && echo writeable=1
[ -x "$p" ] && echo executable=1
if [ -L "$p" ]; then echo "lnk_target=$(readlink -- "$p")"; echo "lnk_source=$(readlink -f -- "$p")"; fi
if [ -f "$p" ] && [ -r "$p" ] && { [ -n "$follow" ] || [ ! -L "$p" ]; }; then
	[ -n "$sum" ] && echo "checksum=$(_t_sum "$sum" "$p")"
	[ -n "$md5" ] && echo "md5=$(_t_sum md5 "$p")"
fi
if [ -n "$mime" ] && command -v file >/dev/null 2>&1; then
	echo "mime=$(file -b --mime-type --mime-encoding -- "$p" 2>/dev/null)"
fi
if [ -n "$attrs" ] && command -v lsattr >/dev/null 2>&1; then
	echo "lsattr=$(lsattr -vd -- "$p" 2>/dev/null)"
fi
