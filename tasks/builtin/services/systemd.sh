
export LANG=C LC_ALL=C
_t_fail() { echo verdict=failed; printf 'msg=%s\n' "$(printf %s "$*" | tr '\n' ' ')"; exit 0; }
# _t_failout MSG FILE: fails with MSG followed by FILE's text as it is.
_t_failout() { echo verdict=failed; printf 'msg=%s\n' "$1"; echo --output--; cat "$2"; exit 0; }
sc=$(PATH=$PATH:/sbin:/usr/sbin command -v systemctl) || _t_fail "Failed to find required executable \"systemctl\" in paths: $PATH"
[ -n "$XDG_RUNTIME_DIR" ] || { XDG_RUNTIME_DIR=/run/user/$(id -u); export XDG_RUNTIME_DIR; }
_t_tmpd tmp
_sc() { "$sc" $opts "$@"; }
if [ -n "$reload" ] && [ -z "$_t_check" ]; then
	_sc daemon-reload >/dev/null 2>"$tmp/e" || _t_failout "failure $? during daemon-reload: " "$tmp/e"
fi
if [ -n "$reexec" ] && [ -z "$_t_check" ]; then
	_sc daemon-reexec >/dev/null 2>"$tmp/e" || _t_failout "failure $? during daemon-reexec: " "$tmp/e"
fi
: >"$tmp/show"
[ -n "$name" ] || { echo verdict=done; exit 0; }
initd=; [ -f "/etc/init.d/$name" ] && initd=1
sd=
# One awk over what show printed: whether systemctl said it ignored the
# request, and the unit's LoadState, LoadError and ActiveState (one line
# each, read back by the shell).
ig= ls= le= as= shown=
if _sc show "$name" >"$tmp/show" 2>"$tmp/e"; then
	shown=1
	{ IFS= read -r ig; IFS= read -r ls; IFS= read -r le; IFS= read -r as; } <<EOF
$(_t_show=$tmp/show awk 'BEGIN { s = ENVIRON["_t_show"] }
/ignoring request/ { ig = 1 }
FILENAME == s && /^LoadState=/ { ls = substr($0, 11) }
FILENAME == s && /^LoadError=/ { le = substr($0, 11) }
FILENAME == s && /^ActiveState=/ { as = substr($0, 13) }
END { print ig; print ls; print le; print as }' "$tmp/show" "$tmp/e")
EOF
fi
if [ -n "$shown" ] && [ -z "$ig" ]; then
	[ -n "$ls" ] && [ "$ls" != not-found ] && sd=1
	[ -n "$sd" ] && [ "$ls" != masked ] && [ -n "$le" ] && _t_fail "Error loading unit file '$name': $le"
else
	: >"$tmp/show"
	as=
	case $(_sc is-enabled "$name" 2>/dev/null) in
	enabled|enabled-runtime|linked|linked-runtime|masked|masked-runtime|static|indirect|disabled|generated|transient) sd=1 ;;
	*) _sc list-unit-files "$name" >/dev/null 2>&1 && sd=1 ;;
	esac
fi
found=$sd$initd
[ -n "$initd" ] && [ -z "$sd" ] && echo "warning=The service ($name) is actually an init script but the system is managed by systemd"
missing="Could not find the requested service $name: host"
if [ -n "$masked" ]; then
	cur=no; [ "$(_sc is-enabled "$name" 2>/dev/null)" = masked ] && cur=yes
	if [ "$cur" != "$masked" ]; then
		echo changed=1
		if [ -z "$_t_check" ]; then
			if [ "$masked" = yes ]; then act=mask; else act=unmask; fi
			_sc "$act" "$name" >/dev/null 2>&1 || { [ -n "$found" ] || _t_fail "$missing"; }
		fi
	fi
fi
if [ -n "$enabled" ]; then
	[ -n "$found" ] || _t_fail "$missing"
	cur=no
	out=$(_sc is-enabled "$name" -l 2>/dev/null); rc=$?
	if [ $rc -eq 0 ]; then
		case $out in indirect|alias) ;; *) cur=yes ;; esac
	elif [ $rc -eq 1 ] && [ "$scope" = system ] && [ -n "$initd" ]; then
		case $out in *disabled) ;; *) ls /etc/rc?.d/S??"$name" >/dev/null 2>&1 && cur=yes ;; esac
	fi
	echo "enabled=$cur"
	if [ "$cur" != "$enabled" ]; then
		echo changed=1; echo "enabled=$enabled"
		if [ -z "$_t_check" ]; then
			if [ "$enabled" = yes ]; then act=enable; else act=disable; fi
			_sc "$act" "$name" >"$tmp/o" 2>&1 || _t_failout "Unable to $act service $name: " "$tmp/o"
		fi
	fi
fi
if [ -n "$state" ]; then
	[ -n "$found" ] || _t_fail "$missing"
	[ -n "$as" ] || _t_fail "Service is in unknown state"
	run=; case $as in active|activating) run=1 ;; esac
	act=
	case $state in
	started) [ -n "$run" ] || act=start ;;
	stopped) { [ -n "$run" ] || [ "$as" = deactivating ]; } && act=stop ;;
	*) if [ -n "$run" ]; then act=${state%ed}; else act=start; fi ;;
	esac
	if [ -n "$act" ]; then
		echo changed=1
		if [ -z "$_t_check" ]; then
			_sc "$act" "$name" >/dev/null 2>"$tmp/e" || _t_failout "Unable to $act service $name: " "$tmp/e"
		fi
	fi
fi
echo verdict=done
echo --output--
cat "$tmp/show"
