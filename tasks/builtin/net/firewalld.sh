# firewalld's helpers; the steps the task needs follow them
# (firewalld_script.go).
export LANG=C
unset LC_ALL
# _f_find NAME: sets _f_b to NAME's path (PATH, then the sbin
# directories), or to nothing
_f_find() {
	_f_b=$(PATH=$PATH:/sbin:/usr/sbin:/usr/local/sbin command -v "$1" 2>/dev/null) || _f_b=
	case $_f_b in /*) ;; *) _f_b= ;; esac
}
# _f_begin: finds firewall-cmd, tells whether the daemon runs (mode=),
# and finds firewall-offline-cmd when it does not; missing= names what
# the host lacks
_f_begin() {
	_f_find firewall-cmd
	_f_fc=$_f_b
	if [ -n "$_f_fc" ] && "$_f_fc" --state >/dev/null 2>&1 </dev/null; then
		_f_mode=online
	else
		_f_mode=offline
		_f_find firewall-offline-cmd
		_f_foc=$_f_b
		if [ -z "$_f_foc" ]; then
			if [ -z "$_f_fc" ]; then echo 'missing=firewalld'; else echo 'missing=offline'; fi
			exit 0
		fi
	fi
	printf '\nmode=%s\n' "$_f_mode"
}
# _f_p ARGS...: firewall-cmd --permanent, or firewall-offline-cmd
_f_p() {
	if [ "$_f_mode" = online ]; then "$_f_fc" --permanent "$@"; else "$_f_foc" "$@"; fi
}
# _f_i ARGS...: firewall-cmd, on the running firewall
_f_i() { "$_f_fc" "$@"; }
# _f_zone ZONE: sets _f_zone to ZONE, or to the default zone
_f_zone() {
	_f_zone=$1
	if [ -z "$_f_zone" ]; then
		if [ "$_f_mode" = online ]; then
			_t_x zone 0 "$_f_fc" --get-default-zone
		else
			_t_x zone 0 "$_f_foc" --get-default-zone
		fi
		_f_zone=$(cat "$_t_d/xo")
	fi
	printf '\nzone=%s\n' "$_f_zone"
}
