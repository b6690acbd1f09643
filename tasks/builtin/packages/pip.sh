
_t_fail() { echo verdict=failed; printf 'msg=%s\n' "$(printf %s "$*" | tr '\n' ' ')"; exit 0; }
tmp=$(mktemp -d) || _t_fail "could not create a temporary directory"
trap 'rm -rf "$tmp"' EXIT
[ -n "$umask" ] && umask "$umask"
[ -n "$chdir" ] || chdir=${TMPDIR:-/tmp}
IFS='
'
set -f
: >"$tmp/out"; : >"$tmp/err"
if [ -n "$venv" ] && [ ! -e "$venv/bin/activate" ] && [ -n "$_t_check" ]; then echo verdict=check; echo changed=1; exit 0; fi
[ -d "$chdir" ] && cd -P "$chdir" || _t_fail "Provided cwd is not a valid directory: $chdir"
if [ -n "$venv" ] && [ ! -e "$venv/bin/activate" ]; then
	[ -z "$venvpyerr" ] || _t_fail "virtualenv_python should not be used when using the venv module or pyvenv as virtualenv_command"
	command -v "${venvcmd%%
*}" >/dev/null 2>&1 || _t_fail "Failed to find required executable \"${venvcmd%%
*}\" in paths: $PATH"
	if [ -n "$venvpy" ]; then
		py=$(command -v python3 || command -v python) && venvcmd="$venvcmd
-p$py"
	fi
	if ! $venvcmd "$venv" >>"$tmp/out" 2>>"$tmp/err"; then
		echo verdict=venvfail; printf 'venvcmd=%s\n' "$(printf %s "$venvcmd" | tr '\n' ' ')"
		echo "outlen=$(wc -c <"$tmp/out")"; echo --output--; cat "$tmp/out" "$tmp/err"; exit 0
	fi
	echo venv_created=1
fi
if [ -n "$exe" ]; then
	case $exe in
	/*) pip=$exe ;;
	*) pip=$(command -v "$exe") || _t_fail "Unable to find any of $exe to use.  pip needs to be installed." ;;
	esac
elif [ -n "$venv" ]; then
	pip=
	for b in pip3 pip; do [ -z "$pip" ] && [ -x "$venv/bin/$b" ] && [ -f "$venv/bin/$b" ] && pip=$venv/bin/$b; done
	[ -n "$pip" ] || _t_fail "Unable to find pip in the virtualenv, $venv, under any of these names: pip3, pip. Make sure pip is present in the virtualenv."
elif py=$(command -v python3) && "$py" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("pip") is None)' 2>/dev/null; then
	pip="$py
-m
pip.__main__"
else pip=$(command -v pip3) || _t_fail "Unable to find any of pip3 to use.  pip needs to be installed."
fi
printf 'pip=%s\n' "$(printf %s "$pip" | tr '\n' '\t')"
_t_list() {
	if LANG=C LC_ALL=C LC_MESSAGES=C $pip list --format=freeze >"$1" 2>>"$tmp/lerr"; then list=list; return; fi
	list=freeze; : >"$tmp/lerr"
	$pip freeze >"$1" 2>>"$tmp/lerr" || _t_fail "stdout: $(cat "$1") :stderr: $(cat "$tmp/lerr")"
}
if [ -n "$_t_check" ]; then
	[ -z "$checkall" ] || { echo verdict=check; echo changed=1; exit 0; }
	_t_list "$tmp/list"
	echo verdict=check; echo "list=$list"; echo "outlen=$(wc -c <"$tmp/list")"
	echo --output--; cat "$tmp/list" "$tmp/lerr"; exit 0
fi
[ -n "$listed" ] && _t_list "$tmp/before"
pipstart=$(wc -c <"$tmp/out")
echo "pipstart=$pipstart"
[ -n "$venv" ] && PATH="$venv/bin:$PATH"
$pip $verb $args >>"$tmp/out" 2>>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ -n "$absent" ] && grep -q 'not installed' "$tmp/out" "$tmp/err"; then rc=0; fi
if [ -n "$listed" ] && [ $rc -eq 0 ]; then _t_list "$tmp/after"; cmp -s "$tmp/before" "$tmp/after" || echo listchanged=1; fi
echo verdict=ran; echo "rc=$rc"
echo "outlen=$(wc -c <"$tmp/out")"
echo --output--; cat "$tmp/out" "$tmp/err"
