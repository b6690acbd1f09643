
command -v sysctl >/dev/null 2>&1 || { echo 'fail=Failed to find required executable "sysctl" in paths: '"$PATH"; exit 0; }
echo "f=$f"
# The running value, as sysctl -n prints it (the shell's read cannot
# take it from /proc/sys, whose files give nothing past a first short
# read).
_v=$(LANG=C LC_ALL=C sysctl -e -n "$name" 2>/dev/null; echo "rc=$?")
_got=
case ${_v##*rc=} in 0) _v=${_v%rc=*} _got=1 ;; esac
if [ -n "$_got" ]; then
	# newlines made spaces (tr '\n' ' '), with no program
	_o=
	while :; do
		case $_v in
		*"
"*) _o="$_o${_v%%"
"*} " _v=${_v#*"
"} ;;
		*) _o=$_o$_v; break ;;
		esac
	done
	printf 'proc=%s\n' "$_o"
fi
