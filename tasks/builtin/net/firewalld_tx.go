package net

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// fwRead is how a transaction reads its setting from firewall-cmd.
type fwRead int

const (
	fwList   fwRead = iota // the command lists values: is the member among them
	fwQuery                // a --query-… command: return code 0 yes, 1 no
	fwTarget               // --get-target: is it the target wanted
	fwZones                // --get-zones: is the zone among them
)

// fwTx is one of the module's transactions in firewall-cmd's words.
type fwTx struct {
	read   fwRead
	words  []string // the read command's options after the zone
	member string   // what fwList and fwTarget look for
	add    []string // the options that enable the setting
	remove []string // the options that disable it
	// timeout: enabling in the running firewall takes the task's timeout
	timeout bool
	// permanentOnly: target and zone, which fail when immediate
	permanentOnly bool
	// noZone: the commands take no --zone (the zone itself)
	noZone bool
	// lenientPerm and lenientImm: the module reads the setting without
	// checking its value (a port's, a forward's permanently), so that
	// an invalid value fails only when it is set; firewall-cmd checks
	// it when reading, and such a read's failure means "not set"
	lenientPerm, lenientImm       bool
	enabledValues, disabledValues []string
	// enabledMsg and disabledMsg are added when the transaction changed
	// something, changedMsg (main's "Changed …") after them
	enabledMsg, disabledMsg func(zone string) string
	changedMsg              func(j *firewalldJob) string
}

// fwSimple is a transaction listing its values with list and changing
// them with --add-NAME=v and --remove-NAME=v.
func fwSimple(list, name, v string, timeout bool) *fwTx {
	return &fwTx{read: fwList, words: []string{list}, member: v, add: []string{"--add-" + name + "=" + v},
		remove: []string{"--remove-" + name + "=" + v}, timeout: timeout}
}

// fwQueried is a transaction reading with --query-NAME[=v].
func fwQueried(name, v string, timeout bool) *fwTx {
	opt := func(verb string) []string {
		if v == "" {
			return []string{"--" + verb + "-" + name}
		}
		return []string{"--" + verb + "-" + name + "=" + v}
	}
	return &fwTx{read: fwQuery, words: opt("query"), add: opt("add"), remove: opt("remove"), timeout: timeout}
}

// fwChanged is main's message for a setting that changed.
func fwChanged(what string) func(j *firewalldJob) string {
	return func(j *firewalldJob) string { return fmt.Sprintf("Changed %s to %s", what, j.a.Str("state")) }
}

// fwTransaction is the transaction of the setting parameter k.
func fwTransaction(j *firewalldJob, k, port, proto string, fwd map[string]any) *fwTx {
	v := j.a.Str(k)
	var tx *fwTx
	switch k {
	case "icmp_block":
		tx = fwSimple("--list-icmp-blocks", "icmp-block", v, true)
		tx.changedMsg = fwChanged("icmp-block " + v)
	case "icmp_block_inversion":
		tx = fwQueried("icmp-block-inversion", "", false)
		j.state = fwExpected(j.state, j.fwBoolish(k))
		tx.changedMsg = fwChanged("icmp-block-inversion " + v)
	case "service":
		tx = fwSimple("--list-services", "service", v, true)
		tx.changedMsg = fwChanged("service " + v)
	case "protocol":
		tx = fwSimple("--list-protocols", "protocol", v, true)
		tx.changedMsg = fwChanged("protocol " + v)
	case "source":
		tx = fwSimple("--list-sources", "source", v, false)
		tx.enabledMsg = func(zone string) string { return fmt.Sprintf("Added %s to zone %s", v, zone) }
		tx.disabledMsg = func(zone string) string { return fmt.Sprintf("Removed %s from zone %s", v, zone) }
	case "port":
		tx = fwQueried("port", port+"/"+proto, true)
		tx.lenientPerm, tx.lenientImm = true, true
		tx.changedMsg = fwChanged("port " + j.portText)
	case "port_forward":
		spec := fmt.Sprintf("port=%s:proto=%s:toport=%s", expr.Str(fwd["port"]), expr.Str(fwd["proto"]), expr.Str(fwd["toport"]))
		if a, ok := fwd["toaddr"]; ok && expr.Str(a) != "" {
			spec += ":toaddr=" + expr.Str(a)
		}
		tx = fwQueried("forward-port", spec, true)
		tx.lenientPerm = true
		tx.changedMsg = fwChanged("port_forward " + j.fwdText)
	case "rich_rule":
		tx = fwQueried("rich-rule", v, true)
		tx.changedMsg = fwChanged("rich_rule " + v)
	case "interface":
		tx = fwSimple("--list-interfaces", "interface", v, false)
		tx.add = []string{"--change-interface=" + v}
		tx.enabledMsg = func(zone string) string { return fmt.Sprintf("Changed %s to zone %s", v, zone) }
		tx.disabledMsg = func(zone string) string { return fmt.Sprintf("Removed %s from zone %s", v, zone) }
	case "masquerade":
		tx = fwQueried("masquerade", "", false)
		j.state = fwExpected(j.state, j.fwBoolish(k))
		tx.enabledMsg = func(zone string) string { return "Added masquerade to zone " + zone }
		tx.disabledMsg = func(zone string) string { return "Removed masquerade from zone " + zone }
	case "target":
		tx = &fwTx{read: fwTarget, words: []string{"--get-target"}, member: v, add: []string{"--set-target=" + v},
			remove: []string{"--set-target=default"}, permanentOnly: true,
			enabledValues: []string{"present", "enabled"}, disabledValues: []string{"absent", "disabled"}}
		tx.enabledMsg = func(zone string) string { return fmt.Sprintf("Set zone %s target to %s", zone, v) }
		tx.disabledMsg = func(zone string) string { return fmt.Sprintf("Reset zone %s target to default", zone) }
	}
	return tx
}

// fwZoneTx is the transaction of the zone itself (state present or
// absent with no setting).
func fwZoneTx() *fwTx {
	tx := &fwTx{read: fwZones, words: []string{"--get-zones"}, permanentOnly: true, noZone: true,
		enabledValues: []string{"present"}, disabledValues: []string{"absent"}}
	tx.enabledMsg = func(zone string) string { return "Added zone " + zone }
	tx.disabledMsg = func(zone string) string { return "Removed zone " + zone }
	tx.changedMsg = func(j *firewalldJob) string {
		return fmt.Sprintf("Changed zone %s to %s", j.a.Str("zone"), j.a.Str("state"))
	}
	return tx
}

// fwExpected is the state masquerade and icmp_block_inversion move to:
// enabled when the state's sense and the value's agree.
func fwExpected(state string, on bool) string {
	if (state == "enabled") == on {
		return "enabled"
	}
	return "disabled"
}

// fwMustBePermanent is the module's failure for a zone or target
// transaction asked to act on the running firewall.
const fwMustBePermanent = "Zone operations must be permanent. " +
	"Make sure you didn't set the 'permanent' flag to 'false' or the 'immediate' flag to 'true'."

// fwStep is one change: enable or disable, permanently or not.
type fwStep struct {
	permanent, enable bool
}

// isOn is whether the read with id ("qp" permanent, "qi" immediate)
// found the setting in place.
func (j *firewalldJob) isOn(h shared.Blobs, id string) bool {
	tx, out := j.tx, h.Blobs["out."+id]
	switch tx.read {
	case fwQuery:
		return h.V["rc."+id] == "0"
	case fwTarget:
		got := strings.TrimSpace(out)
		if got == "REJECT" {
			got = "%%REJECT%%"
		}
		return got == tx.member
	case fwZones:
		return slices.Contains(strings.Fields(out), j.zone)
	}
	return slices.Contains(strings.Fields(out), tx.member)
}

// lenientErr is the failure of a lenient read (see fwTx) that failed
// for another reason than the value: an unknown zone.
func (j *firewalldJob) lenientErr(h shared.Blobs, id string, lenient bool) string {
	if rc := h.V["rc."+id]; !lenient || rc == "0" || rc == "1" {
		return ""
	}
	if e := h.Blobs["err."+id] + h.Blobs["out."+id]; strings.Contains(e, "INVALID_ZONE") {
		return j.exception(h.Blobs["err."+id], h.Blobs["out."+id])
	}
	return ""
}

// decide runs the module's transaction logic on what the host read: the
// operation's message, then the changes to make (permanent first). A
// zone or target transaction asked to act immediately sets failMsg.
func (j *firewalldJob) decide(h shared.Blobs) []fwStep {
	tx := j.tx
	if tx == nil {
		return nil
	}
	var permOn, immOn bool
	if j.permanent {
		if j.failMsg = j.lenientErr(h, "qp", tx.lenientPerm); j.failMsg != "" {
			return nil
		}
		permOn = j.isOn(h, "qp")
	}
	if j.immediate {
		if tx.permanentOnly {
			j.failMsg = fwMustBePermanent
			return nil
		}
		if j.failMsg = j.lenientErr(h, "qi", tx.lenientImm); j.failMsg != "" {
			return nil
		}
		immOn = j.isOn(h, "qi")
	}
	switch {
	case j.permanent && j.immediate:
		j.msgs = append(j.msgs, "Permanent and Non-Permanent(immediate) operation")
	case j.permanent:
		j.msgs = append(j.msgs, "Permanent operation")
	default:
		j.msgs = append(j.msgs, "Non-permanent operation")
	}
	enabled, disabled := []string{"enabled"}, []string{"disabled"}
	if tx.enabledValues != nil {
		enabled, disabled = tx.enabledValues, tx.disabledValues
	}
	var steps []fwStep
	switch {
	case slices.Contains(enabled, j.state):
		if j.permanent && !permOn {
			steps = append(steps, fwStep{permanent: true, enable: true})
		}
		if j.immediate && !immOn {
			steps = append(steps, fwStep{enable: true})
		}
	case slices.Contains(disabled, j.state):
		if j.permanent && permOn {
			steps = append(steps, fwStep{permanent: true})
		}
		if j.immediate && immOn {
			steps = append(steps, fwStep{})
		}
	}
	return steps
}

// fwServiceHint is what the module adds to an error naming an unknown
// service.
const fwServiceHint = "Services are defined by port/tcp relationship and named as they are in /etc/services (on most systems)"

// exception is the module's message for a firewalld error, from what
// firewall-cmd printed: the daemon's error as the D-Bus client words it
// (a rich rule's syntax, which the module checks itself, and every
// offline error are firewalld's own words), then the messages so far.
func (j *firewalldJob) exception(stderr, stdout string) string {
	text := strings.TrimSpace(stderr)
	if text == "" {
		text = strings.TrimSpace(stdout)
	}
	text = strings.TrimPrefix(text, "Error: ")
	if !j.offline && !strings.HasPrefix(text, "INVALID_RULE:") {
		text = "org.fedoraproject.FirewallD1.Exception: " + text
	}
	msgs := slices.Clone(j.msgs)
	if strings.Contains(text, "INVALID_SERVICE") {
		msgs = append(msgs, fwServiceHint)
	}
	if len(msgs) > 0 {
		return "ERROR: Exception caught: " + text + " " + strings.Join(msgs, ", ")
	}
	return "ERROR: Exception caught: " + text
}
