# The patch task, after Go's arguments. Inputs:
#   src       the patch on the host (expanded), or, with sent, its name:
#             the patch then comes on stdin into a private directory
#   sent      non-empty: the patch comes from the controller on stdin
#   dest      the file to patch (expanded), or empty
#   basedir   the directory to patch in (expanded), or empty: dest's
#   quoted    non-empty: a path holds a quote, which Python's shlex
#             refuses (the module crashes)
#   _p_opts PROG [--dry-run...]  runs one patch command line (Go's)
# Prints fail=MESSAGE, nobin=1, crash=1, or changed= with, when patch
# failed, failed=1 and its output (_t_tail); done=1 at the end.
if [ -n "$sent" ]; then
	src=$_t_d/$src
	cat >"$src" || exit 1
fi
[ -r "$src" ] || { printf "fail=src %s doesn't exist or not readable\n" "$src"; exit 0; }
if [ -n "$has_dest" ] && ! [ -w "$dest" ]; then
	printf "fail=dest %s doesn't exist or not writable\n" "$dest"
	exit 0
fi
if [ -n "$has_basedir" ] && ! [ -e "$basedir" ]; then
	printf "fail=basedir %s doesn't exist\n" "$basedir"
	exit 0
fi
if [ -z "$has_basedir" ]; then
	# Python's os.path.dirname
	case $dest in */*) basedir=${dest%/*}/ ;; *) basedir= ;; esac
	case $basedir in *[!/]*) while case $basedir in */) true ;; *) false ;; esac; do basedir=${basedir%/}; done ;; esac
fi
_pb=$(command -v patch) || { echo nobin=1; exit 0; }
[ -n "$quoted" ] && { echo crash=1; exit 0; }
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
_p_run() { "$@" >"$_t_d/o" 2>"$_t_d/e" </dev/null; rc=$?; }
if _p_test "$_pb"; then
	echo changed=0
elif _p_apply "$_pb"; then
	echo changed=1
else
	echo failed=1
	echo "rc=$rc"
	_t_tail
	exit 0
fi
echo done=1
