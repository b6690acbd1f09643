package net

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// firewalldFuncs are the firewalld module's shell helpers; the steps
// readScript and applyScript write after them call them:
//
//	_f_begin        finds firewall-cmd and asks whether the daemon runs:
//	                mode=online, or mode=offline with firewall-offline-cmd
//	                found, or missing=firewalld|offline and the end
//	_f_zone ZONE    sets _f_zone to ZONE or the default zone, zone=
//	_t_x ID OK CMD  (shared.DebBlobFuncs) runs CMD, prints rc.ID= and
//	                the blobs out.ID and err.ID, and failed=ID and the
//	                end when it failed
//	_f_p, _f_i      firewall-cmd --permanent (firewall-offline-cmd when
//	                offline), and firewall-cmd on the running firewall
//
//go:embed firewalld.sh
var firewalldFuncs string

// fwReadOK is the return codes a read accepts: 0 and 1 for a query,
// any for a lenient one.
func (tx *fwTx) fwReadOK(lenient bool) string {
	switch {
	case lenient:
		return "any"
	case tx.read == fwQuery:
		return "01"
	}
	return "0"
}

// fwWords renders options as shell words.
func fwWords(words []string) string {
	var b strings.Builder
	for _, w := range words {
		b.WriteString(" " + shared.Q(w))
	}
	return b.String()
}

// zoneWord is the --zone option of the transaction's commands.
func (tx *fwTx) zoneWord() string {
	if tx.noZone {
		return ""
	}
	return ` "--zone=$_f_zone"`
}

// readScript finds firewalld and its mode and, when the arguments hold
// and the task is not one the mode refuses, resolves the zone and reads
// the setting: permanently, then in the running firewall.
func (j *firewalldJob) readScript() string {
	var b strings.Builder
	b.WriteString(shared.SysFuncs + shared.DebBlobFuncs + firewalldFuncs + "_f_begin\n")
	if j.immediate {
		b.WriteString("[ \"$_f_mode\" = online ] || { echo offimm=1; exit 0; }\n")
	}
	if tx := j.tx; tx != nil && j.argErr == "" {
		zone := ""
		if shared.Truthy(j.a["zone"]) {
			zone = j.a.Str("zone")
		}
		fmt.Fprintf(&b, "_f_zone %s\n", shared.Q(zone))
		if j.permanent {
			fmt.Fprintf(&b, "_t_x qp %s _f_p%s%s\n", tx.fwReadOK(tx.lenientPerm), tx.zoneWord(), fwWords(tx.words))
		}
		if j.immediate && !tx.permanentOnly {
			fmt.Fprintf(&b, "_t_x qi %s _f_i%s%s\n", tx.fwReadOK(tx.lenientImm), tx.zoneWord(), fwWords(tx.words))
		}
	}
	b.WriteString("echo; echo done=1\n")
	return b.String()
}

// afterRead turns what the read found into the task's end when it ends
// there: firewalld missing, an immediate task without the daemon, the
// arguments refused, a read that failed.
func (j *firewalldJob) afterRead(h shared.Blobs, out transport.Result) (tasks.Result, bool) {
	v := h.V
	switch v["missing"] {
	case "firewalld":
		return shared.Fail("firewall-cmd was not found on the host: the firewalld module needs firewalld " +
			"(0.2.11 or newer; 0.3.9 or newer for offline operations) installed there"), true
	case "offline":
		return shared.Fail("firewalld is not running and firewall-offline-cmd was not found on the host: " +
			"offline operations need firewalld 0.3.9 or newer"), true
	}
	if v["mode"] == "" {
		return shared.Fail(shared.ScriptError(out)), true
	}
	j.offline = v["mode"] == "offline"
	if v["offimm"] == "1" {
		return shared.Fail("firewall is not currently running, unable to perform immediate actions without a running firewall daemon"), true
	}
	if j.argErr != "" {
		return j.failed(j.argErr), true
	}
	j.zone = v["zone"]
	if id := v["failed"]; id != "" {
		return j.failed(j.exception(h.Blobs["err."+id], h.Blobs["out."+id])), true
	}
	if v["done"] != "1" {
		return shared.Fail(shared.ScriptError(out)), true
	}
	return tasks.Result{}, false
}

// applyScript makes the changes, stopping at the first that fails.
func (j *firewalldJob) applyScript(steps []fwStep) string {
	tx := j.tx
	var b strings.Builder
	b.WriteString(shared.SysFuncs + shared.DebBlobFuncs + firewalldFuncs + "_f_begin\n")
	mode := "online"
	if j.offline {
		mode = "offline"
	}
	fmt.Fprintf(&b, "[ \"$_f_mode\" = %s ] || { echo moved=1; exit 0; }\n_f_zone %s\n", mode, shared.Q(j.zone))
	for i, s := range steps {
		words := tx.remove
		if s.enable {
			words = tx.add
		}
		if tx.read == fwZones {
			words = []string{"--delete-zone=" + j.zone}
			if s.enable {
				words = []string{"--new-zone=" + j.zone}
			}
		}
		if j.offline && !s.enable && strings.HasPrefix(words[0], "--remove-service=") {
			// firewall-offline-cmd's --remove-service is lokkit's
			words = []string{"--remove-service-from-zone=" + strings.TrimPrefix(words[0], "--remove-service=")}
		}
		run := "_f_i"
		if s.permanent {
			run = "_f_p"
		}
		timeout := ""
		if t := j.a.Int("timeout"); s.enable && !s.permanent && tx.timeout && t != 0 {
			if t < 0 {
				// firewall-cmd takes no negative timeout: the daemon's
				// own refusal, as the module gets it
				fmt.Fprintf(&b, "printf '\\nbadtimeout=%d\\n'; exit 0\n", t)
				break
			}
			timeout = fmt.Sprintf(" --timeout=%d", t)
		}
		fmt.Fprintf(&b, "_t_x s%d 0 %s%s%s%s\n", i, run, tx.zoneWord(), fwWords(words), timeout)
	}
	b.WriteString("echo; echo done=1\n")
	return b.String()
}

// afterApply reports a change that failed.
func (j *firewalldJob) afterApply(h shared.Blobs, out transport.Result) (tasks.Result, bool) {
	switch {
	case h.V["failed"] != "":
		id := h.V["failed"]
		return j.failed(j.exception(h.Blobs["err."+id], h.Blobs["out."+id])), true
	case h.V["badtimeout"] != "":
		return j.failed(j.exception(fmt.Sprintf("INVALID_VALUE: timeout '%s' is not positive number", h.V["badtimeout"]), "")), true
	case h.V["moved"] == "1":
		return j.failed("firewalld started or stopped while the task ran: nothing was changed"), true
	case h.V["done"] != "1":
		return j.failed(shared.ScriptError(out)), true
	}
	return tasks.Result{}, false
}
