package builtin

import (
	"bytes"
	_ "embed"
	"strconv"
)

// blobFuncs are sh helpers for scripts that return the raw output of
// the commands they ran: _t_blob NAME FILE prints a "--blob NAME LEN--"
// line and the file's LEN bytes, which parseBlobs reads back exactly,
// whatever they hold. _t_bin finds a tool as Ansible's get_bin_path does:
// on PATH, then in /sbin, /usr/sbin and /usr/local/sbin.
//
//go:embed blob_funcs.sh
var blobFuncs string

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
var serviceFactsScript = blobFuncs + serviceFactsScriptBody

//go:embed service_facts.sh
var serviceFactsScriptBody string
