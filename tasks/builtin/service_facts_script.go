package builtin

import (
	"bytes"
	"strconv"
)

// blobFuncs are sh helpers for scripts that return the raw output of
// the commands they ran: _t_blob NAME FILE prints a "--blob NAME LEN--"
// line and the file's LEN bytes, which parseBlobs reads back exactly,
// whatever they hold. _t_bin finds a tool as Ansible's get_bin_path does:
// on PATH, then in /sbin, /usr/sbin and /usr/local/sbin.
const blobFuncs = `
_t_blob() {
	printf '\n--blob %s %s--\n' "$1" "$(wc -c <"$2" | tr -d ' ')"
	cat "$2"
}
_t_bin() { PATH=$PATH:/sbin:/usr/sbin:/usr/local/sbin command -v "$1" 2>/dev/null; }
_t_locale() { # Ansible's get_best_parsable_locale
	_t_loc=C
	if _t_la=$(locale -a 2>/dev/null); then
		for _l in C.utf8 C.UTF-8 en_US.utf8 en_US.UTF-8 C POSIX; do
			if printf '%s\n' "$_t_la" | grep -qx -- "$_l"; then _t_loc=$_l; break; fi
		done
	fi
	export LANG="$_t_loc" LC_ALL="$_t_loc"
}
`

// parseBlobs splits a script's stdout into its key=value lines (all text
// outside the blobs) and the blobs _t_blob printed, by name.
func parseBlobs(out []byte) (verdict, map[string]string) {
	blobs := map[string]string{}
	var head bytes.Buffer
	mark := []byte("\n--blob ")
	for {
		i := bytes.Index(out, mark)
		if i < 0 {
			head.Write(out)
			break
		}
		head.Write(out[:i+1])
		rest := out[i+len(mark):]
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 || !bytes.HasSuffix(rest[:nl], []byte("--")) {
			head.Write(rest)
			break
		}
		hdr := string(rest[:nl-2])
		sp := bytes.LastIndexByte([]byte(hdr), ' ')
		n, err := strconv.Atoi(hdr[sp+1:])
		body := rest[nl+1:]
		if sp < 0 || err != nil || n > len(body) {
			head.Write(rest)
			break
		}
		blobs[hdr[:sp]] = string(body[:n])
		out = body[n:]
	}
	return parseVerdict(head.Bytes()), blobs
}

// serviceFactsScript gathers what Ansible's service_facts collectors read
// on Linux, in one round trip, and prints it raw for the module to parse
// as they do:
//
//   - the SysV collector (a service tool, and neither chkconfig nor
//     rc-status): service --status-all (blobs sysv_out, sysv_err; sysv_rc,
//     initd=1 when /etc/init.d exists);
//   - upstart (initctl, no chkconfig): initctl list (upstart_out,
//     upstart_err, upstart_rc);
//   - RedHat's chkconfig: its listing (rh_out), and for each
//     service it lists (the awk below matches Ansible's pattern) the exit
//     status and stderr of "service NAME status" (rhst_N, rhse_N blobs,
//     rhn_N the name, rhon_N 1 when on in runlevel 3);
//   - OpenRC (rc-status and rc-update): their lists through the same
//     pipes (openrc_status, openrc_update);
//   - systemd (PID 1 is systemd: the file $_t_comm names it), with
//     the systemctl found first in $_t_optdirs, then on PATH: list-units
//     (units_out, units_err, units_rc), list-unit-files (files_out,
//     files_err, files_rc), and "systemctl show NAME
//     --property=ActiveState" for each unit file that list-units did not
//     name (shown_N, showrc_N, shown_name_N).
const serviceFactsScript = blobFuncs + `
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
`
