package services

import (
	_ "embed"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// serviceScript is the service module's check-and-apply over whichever
// init system the host runs, in one round trip, as Ansible's service
// module does on Linux. Inputs (shell variables, quoted by the module):
//
//	name      the service
//	state     "", started, stopped, restarted or reloaded
//	enabled   "", yes or no
//	pattern   a text to look for in ps output instead of asking the
//	          service's status
//	args      arguments added to the control command
//	runlevel  OpenRC's runlevel for enabled
//	sleep     seconds between stop and start on restart
//	mgr       "" (detect), systemd, openrc or sysv: the init system
//	_t_check  non-empty: change nothing
//
// It prints key=value lines: mgr (the init system used), enabled_changed,
// running (1, 0 or "" for unknown), svc_change, then verdict=failed with
// msg, verdict=checkenable (check mode, where Ansible stops after the
// enabled test: always with insserv, never with update-rc.d, with the
// others when the enabled state would change), verdict=check (check mode
// and the state would change) or verdict=done with rc and, for a failed
// control command, a "--output--" line followed by its stderr (its stdout
// when stderr is empty).
//
// The word _t_svc_script marks this script's own command line, so that a
// pattern is never found in it.
//
//go:embed service.sh
var serviceScript string

// serviceLib is service.sh as a Lib piece.
var serviceLib = []string{shared.TmpdLib, shared.MainFunc("_t_service_main", serviceScript)}
