package services

import (
	_ "embed"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// sysvinitScript is the sysvinit module's check-and-apply, one round
// trip, as ansible-core 2.14's sysvinit does it. Inputs (shell variables
// and a function, set by the module):
//
//	name       the service (or the path of its init script)
//	script     its init script: name when it starts with /, else
//	           /etc/init.d/name
//	state      "", start, stop, restart or reload
//	enabled    "", yes or no
//	runlevels  runlevels for enabled, space-separated ("" for all)
//	rlcat      the runlevels run together, for chkconfig --level
//	pattern    a text to look for in ps output instead of asking the
//	           service's status
//	sleep      seconds to wait after each of restart's stop and start
//	_t_args    a function running its arguments followed by the task's
//	           arguments (the words of arguments)
//	_t_check   non-empty: change nothing
//	_t_optdirs where chkconfig, update-rc.d and service are looked for
//	           before PATH (Ansible's /sbin, /usr/sbin, /bin, /usr/bin)
//
// It prints key=value lines and blobs (parseBlobs): missing=1 (no init
// script), nops=1 with path (no ps), running (1 or 0) with worked (1 when
// a method told), warn_ps=1 (ps saw the name); en_changed=1 when the
// enabled state differs and, when it ran the command that changes it,
// en_ran=1, en_tool (update-rc.d, chkconfig or none) and en_rc with
// blobs en_out and en_err; st_changed=1 when the state changes and, when
// it ran the init script, st_rc with blobs st_out and st_err, or
// st_fail=1 when a run failed (Ansible stops there); done=1 at the end.
//
// The word _t_sysvinit_script marks this script's own command line, so
// that a pattern is never found in it.
var sysvinitScript = shared.BlobFuncs + shared.TmpdFuncs + sysvinitScriptBody

//go:embed sysvinit.sh
var sysvinitScriptBody string
