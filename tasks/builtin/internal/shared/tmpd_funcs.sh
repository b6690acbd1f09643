
# _t_tmpd VAR puts in $VAR an empty directory of the script's own for
# scratch files: the first time, made where the persistent shell says a
# frame may keep one (transport/ssh's $__tender_w, removed with the
# frame's other files: one mkdir, no rm), else a new one from mktemp,
# removed when the script exits. No directory: the script exits 1. The
# trap prints ${__tender_cs-} last, as a capture frame's shell asks of a
# script that sets its own (transport.Cmd.Lines).
_t_tmpd() {
	if [ -z "${_t_tmpw-}" ] && [ -n "${__tender_w-}" ] && mkdir -m 700 -- "$__tender_w" 2>/dev/null; then
		_t_tmpw=1
		eval "$1=\$__tender_w"
		return 0
	fi
	_t_tmpn=$(mktemp -d) || exit 1
	_t_tmpk=$((${_t_tmpk:-0} + 1))
	eval "$1=\$_t_tmpn _t_tmp$_t_tmpk=\$_t_tmpn"
	_t_tmprm="${_t_tmprm-} \"\$_t_tmp$_t_tmpk\""
	# shellcheck disable=SC2064 # the names are fixed now, their values read at exit
	trap "rm -rf --$_t_tmprm"'; printf %s "${__tender_cs-}"' EXIT
}
