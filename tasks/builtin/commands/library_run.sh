# Runs a content module (a library/ file) on the host, as Ansible does:
# in a private directory under ~/.ansible/tmp (Ansible's remote_tmp),
# removed afterwards. The module's text comes on stdin; its arguments
# file is written from $args, never from a command line. Inputs:
#   base    the module's file name
#   args    the arguments file's text
#   utils   the names of the zips in ~/.ansible/tmp that Python imports
#           from (ansible-core's module_utils, a collection module's
#           packages), space-separated, or empty; when some are missing
#           the script prints $mark, the home directory and the missing
#           names, and exits $code, for the runner to send them
#   modname a collection module's dotted name, run with python -m from
#           the zips (its text is then not on stdin), or empty
#   interp  the interpreter's words (ansible_<name>_interpreter or the
#           shebang's), or empty to run the file itself
#   findpy  non-empty: with no $interp, run the module with the first
#           Python the host has
# The private directory and files are made under umask 077; the module
# runs with the login's own umask, as Ansible runs it.
_um=$(umask)
umask 077
_h=${HOME:-/tmp}
_c="$_h/.ansible/tmp"
mkdir -p "$_c" || exit 1
if [ -n "$utils" ]; then
	_miss= _pp=
	for _u in $utils; do
		[ -f "$_c/$_u" ] || _miss="$_miss $_u"
		_pp="$_pp${_pp:+:}$_c/$_u"
	done
	[ -z "$_miss" ] || { printf '%s%s%s\n' "$mark" "$_h" "$_miss"; exit "$code"; }
	PYTHONPATH="$_pp${PYTHONPATH:+:$PYTHONPATH}"
	export PYTHONPATH
fi
_d=$(mktemp -d "$_c/tender-module.XXXXXXXX") || exit 1
trap 'rm -rf "$_d"' EXIT
if [ -z "$modname" ]; then
	cat > "$_d/$base" || exit 1
	chmod 700 "$_d/$base"
fi
printf '%s' "$args" > "$_d/args" || exit 1
if [ -z "$interp" ] && [ -n "$findpy" ]; then
	for _p in python3 /usr/bin/python3 /usr/libexec/platform-python python /usr/bin/python; do
		if command -v "$_p" >/dev/null 2>&1; then interp=$_p; break; fi
	done
	[ -n "$interp" ] || { echo "/usr/bin/python: not found" >&2; exit 127; }
fi
umask "$_um"
# The interpreter is words, split as a shebang line's are, never globbed.
set -f
if [ -n "$modname" ]; then
	# shellcheck disable=SC2086
	$interp -m "$modname" "$_d/args" </dev/null
else
	# shellcheck disable=SC2086
	$interp "$_d/$base" "$_d/args" </dev/null
fi
