
# _t_mk gives the script its temporary directory ($_t_d, with the files
# _t_tail prints) the first time it is called (_t_tmpd). Call it in the
# script's own shell, not in a $(...) or a pipeline: a subshell's
# directory would be gone when it ends.
_t_mk() {
	[ -z "${_t_d-}" ] || return 0
	_t_tmpd _t_d
	: >"$_t_d/o"; : >"$_t_d/e"
}
_t_run() { _t_mk; "$@" >>"$_t_d/o" 2>>"$_t_d/e"; rc=$?; return $rc; }
_t_runin() { _t_mk; _t_i=$1; shift; printf '%s\n' "$_t_i" | "$@" >>"$_t_d/o" 2>>"$_t_d/e"; rc=$?; return $rc; }
# _t_tail prints the markers and the output files, each cat only when not
# empty; nothing when no command printed anything (Tailed finds no
# output then, and RunTailed's answer needs no cat).
_t_tail() {
	[ -n "${_t_d-}" ] && { [ -s "$_t_d/o" ] || [ -s "$_t_d/e" ]; } || return 0
	printf '\n%s\n' "$_t_om"; [ ! -s "$_t_d/o" ] || cat "$_t_d/o"
	printf '\n%s\n' "$_t_em"; [ ! -s "$_t_d/e" ] || cat "$_t_d/e"
}
_t_ent() {
	if command -v getent >/dev/null 2>&1; then getent "$1" "$2"; return; fi
	awk -F: -v n="$2" '$1 == n || (n ~ /^[0-9]+$/ && $3 == n) { print; f = 1; exit } END { exit !f }' "/etc/$1"
}
# _t_entby DB NAME sets $_t_eb to NAME's entry in DB (passwd, group),
# found by name, empty when none. On the script's first look at the name
# it named (transport.Cmd.Passwd, Cmd.Group), the entry the shell read
# with those of the tasks beside it, if there is one; else getent (one
# process; a number it took for an id is not NAME). getent takes digits
# for an id: a name of digits it did not find is looked up by name in
# the /etc file, as getpwnam and getgrnam find it there.
_t_entby() {
	_t_eb=
	if [ -n "${__tender_sp-}" ] && [ "$2" = "$__tender_sp" ]; then
		__tender_sp=
		case ${__tender_sf-} in
		*"
$2:"*)
			_t_eb=${__tender_sf#*"
$2:"}
			_t_eb=$2:${_t_eb%%"
"*} ;;
		esac
	fi
	[ -n "$_t_eb" ] || _t_eb=$(_t_ent "$1" "$2" 2>/dev/null) || _t_eb=
	_t_eb=${_t_eb%%
*}
	case $_t_eb in "$2":*) ;; *) _t_eb= ;; esac
	case $2 in
	'' | *[!0-9]*) ;;
	*) [ -n "$_t_eb" ] || _t_eb=$(awk -F: -v n="$2" '$1 == n { print; exit }' "/etc/$1" 2>/dev/null) || _t_eb= ;;
	esac
}
