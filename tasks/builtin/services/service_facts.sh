
_t_locale
_t_d=$(mktemp -d) || exit 1
trap 'rm -rf "$_t_d"' EXIT
svc=$(_t_bin service) chk=$(_t_bin chkconfig) ictl=$(_t_bin initctl) rcs=$(_t_bin rc-status) rcu=$(_t_bin rc-update)
if [ -n "$svc" ] && [ -z "$chk" ] && [ -z "$rcs" ]; then
	"$svc" --status-all >"$_t_d/o" 2>"$_t_d/e"; printf '\nsysv_rc=%s\n' "$?"
	[ -e /etc/init.d ] && printf '\ninitd=1\n'
	_t_blob sysv_out "$_t_d/o"; _t_blob sysv_err "$_t_d/e"
fi
if [ -n "$ictl" ] && [ -z "$chk" ]; then
	"$ictl" list >"$_t_d/o" 2>"$_t_d/e"; printf '\nupstart_rc=%s\n' "$?"
	_t_blob upstart_out "$_t_d/o"; _t_blob upstart_err "$_t_d/e"
elif [ -n "$chk" ]; then
	_rl='[[:space:]]+[0-9]:(on|off)'
	_rl7="$_rl$_rl$_rl$_rl$_rl$_rl$_rl"
	"$chk" >"$_t_d/o" 2>"$_t_d/e"
	if ! grep -Eq -- "$_rl7" "$_t_d/o"; then
		if grep -Eq -- '[[:space:]]+(on|off)' "$_t_d/o"; then
			"$chk" -l --allservices >"$_t_d/o" 2>"$_t_d/e"
		elif grep -q -- --list "$_t_d/e"; then
			"$chk" --list >"$_t_d/o" 2>"$_t_d/e"
		fi
	fi
	_t_blob rh_out "$_t_d/o"
	awk -v re="$_rl7" '{
		if (!match($0, re)) next
		n = split(substr($0, RSTART, RLENGTH), t, /[[:space:]]+/)
		on = 0; k = 0
		for (i = 1; i <= n; i++) if (t[i] ~ /^[0-9]:/) { k++; if (k == 4 && t[i] ~ /:on$/) on = 1 }
		printf "%s\t%d\n", substr($0, 1, RSTART - 1), on
	}' "$_t_d/o" >"$_t_d/rh"
	_i=0
	while IFS='	' read -r _n _on; do
		_i=$((_i + 1))
		printf '\nrhon_%s=%s\n' "$_i" "$_on"
		printf '%s' "$_n" >"$_t_d/n"; _t_blob "rhn_$_i" "$_t_d/n"
		if [ -n "$svc" ]; then "$svc" "$_n" status >/dev/null 2>"$_t_d/e"; else false 2>"$_t_d/e"; fi
		printf '\nrhst_%s=%s\n' "$_i" "$?"
		_t_blob "rhse_$_i" "$_t_d/e"
	done <"$_t_d/rh"
elif [ -n "$rcs" ] && [ -n "$rcu" ]; then
	"$rcs" -a -s -m 2>&1 | grep '^ ' | tr -d '[]' >"$_t_d/o"
	"$rcu" show -v 2>&1 | grep '|' >"$_t_d/u"
	_t_blob openrc_status "$_t_d/o"; _t_blob openrc_update "$_t_d/u"
fi
if grep -q systemd "$_t_comm" 2>/dev/null; then
	sctl=$(PATH=$_t_optdirs:$PATH:/sbin:/usr/sbin:/usr/local/sbin command -v systemctl 2>/dev/null)
fi
if [ -n "$sctl" ]; then
	printf '\nsystemd=1\n'
	"$sctl" list-units --no-pager --type service --all >"$_t_d/o" 2>"$_t_d/e"; _rc=$?
	printf '\nunits_rc=%s\n' "$_rc"
	_t_blob units_out "$_t_d/o"; _t_blob units_err "$_t_d/e"
	[ "$_rc" = 0 ] || : >"$_t_d/o"
	# the units list-units named, as Ansible reads them
	grep -F .service "$_t_d/o" | awk '{
		s = 0
		for (i = 1; i <= NF; i++) if ($i == "not-found" || $i == "masked" || $i == "failed") { s = 1; break }
		if (NF - s >= 4) print $(1 + s)
	}' >"$_t_d/known"
	"$sctl" list-unit-files --no-pager --type service --all >"$_t_d/o" 2>"$_t_d/e"; printf '\nfiles_rc=%s\n' "$?"
	_t_blob files_out "$_t_d/o"; _t_blob files_err "$_t_d/e"
	_i=0
	grep -F .service "$_t_d/o" | awk 'NF >= 2 { print $1 }' | while read -r _n; do
		grep -qxF -- "$_n" "$_t_d/known" && continue
		_i=$((_i + 1))
		"$sctl" show "$_n" --property=ActiveState >"$_t_d/s" 2>/dev/null
		printf '\nshowrc_%s=%s\n' "$_i" "$?"
		printf '%s' "$_n" >"$_t_d/n"; _t_blob "shown_name_$_i" "$_t_d/n"; _t_blob "shown_$_i" "$_t_d/s"
	done
fi
echo
echo done=1
