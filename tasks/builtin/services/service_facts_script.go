package services

import (
	_ "embed"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

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
var serviceFactsScript = shared.BlobFuncs + serviceFactsScriptBody

//go:embed service_facts.sh
var serviceFactsScriptBody string
