# Runs a command or shell task's program once the gate (gate.sh) let it,
# after printing tender=run. $_t_how says how:
#   argv   the positional parameters are the program and its arguments;
#          a program that cannot be found prints tender=notfound instead,
#          as Python's exec fails
#   posix  $_t_text is shell text for the POSIX shell $_t_sh, run as
#          `sh -c TEXT` runs it ($0 being the shell) but handed over in a
#          here-document on descriptor 3, so that no process's argv shows
#          it; the text closes descriptor 3 before it runs
#   other  $_t_sh, not a POSIX shell, gets the text with -c
case $_t_how in
argv)
	command -v "$1" >/dev/null 2>&1 || { echo tender=notfound; exit "${_t_failrc:-0}"; }
	echo tender=run
	exec "$@" ;;
posix)
	echo tender=run
	exec "$_t_sh" -c 'eval "$(cat <&3)"' "$_t_sh" 3<<_tender_text_
exec 3<&-
$_t_text
_tender_text_
	;;
*)
	echo tender=run
	exec "$_t_sh" -c "$_t_text" ;;
esac
