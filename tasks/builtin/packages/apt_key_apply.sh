
: >"$_t_d/ao"; : >"$_t_d/ae"
case $action in
file) _t_akr add "$file" >"$_t_d/ao" 2>"$_t_d/ae" </dev/null; _t_rc=$? ;;
data) _t_akr add - <"$_t_d/key" >"$_t_d/ao" 2>"$_t_d/ae"; _t_rc=$? ;;
del) _t_akr del "$id" >"$_t_d/ao" 2>"$_t_d/ae" </dev/null; _t_rc=$? ;;
recv)
	_t_px=
	for _t_v in "$HTTPS_PROXY" "$https_proxy" "$HTTP_PROXY" "$http_proxy"; do [ -n "$_t_v" ] && { _t_px=$_t_v; break; }; done
	set -- adv --no-tty --keyserver "$keyserver"
	[ -z "$_t_px" ] || set -- "$@" --keyserver-options "http-proxy=$_t_px"
	printf 'proxy=%s\n' "$_t_px"
	_t_loc=C # Ansible's get_best_parsable_locale
	if _t_la=$(locale -a 2>/dev/null); then
		for _t_l in C.utf8 C.UTF-8 en_US.utf8 en_US.UTF-8 C POSIX; do
			if printf '%s\n' "$_t_la" | grep -qx -- "$_t_l"; then _t_loc=$_t_l; break; fi
		done
	fi
	printf 'loc=%s\n' "$_t_loc"
	_t_i=0
	while [ $_t_i -lt 5 ]; do
		(export LANG="$_t_loc" LC_ALL="$_t_loc" LC_MESSAGES="$_t_loc"; _t_akr "$@" --recv "$id") >"$_t_d/ao" 2>"$_t_d/ae" </dev/null
		_t_rc=$?
		[ $_t_rc -eq 0 ] && break
		_t_i=$((_t_i + 1))
	done
	;;
esac
echo "act_rc=$_t_rc"
_t_blob act_out "$_t_d/ao"
_t_blob act_err "$_t_d/ae"
_t_list
echo done=1
