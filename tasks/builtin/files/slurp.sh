# Python's open(): the error it would raise (its strerror), a directory
# (which opens, then fails with EISDIR), or the bytes. A regular file the
# shell finds readable is read at once: the error's programs run only
# when it is not.
if [ -f "$p" ] && [ -r "$p" ]; then
	printf 'ok=1\n--content--\n'
	exec cat -- "$p"
fi
_e=$(_t_open_err "$p")
if [ -n "$_e" ]; then echo "err=$_e"; exit 0; fi
if [ -d "$p" ]; then echo "err=Is a directory"; exit 0; fi
echo ok=1
echo --content--
cat -- "$p" || exit 1
