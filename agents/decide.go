package agents

import (
	"fmt"
	"sort"
	"strings"
)

// Action is what a rollout does with a host.
type Action string

// The actions, in the order Decide considers them.
const (
	// ActionForce: the operator asked for a redeploy.
	ActionForce Action = "force"
	// ActionNew: the agent was never deployed on the host (init=true).
	ActionNew Action = "new"
	// ActionUpgrade: the bundle differs from what the ledger recorded.
	ActionUpgrade Action = "upgrade"
	// ActionRepair: the host's files or agent differ from the ledger.
	ActionRepair Action = "repair"
	// ActionSkip: the host is up to date; nothing to do.
	ActionSkip Action = "skip"
	// ActionUnreachable: the host could not be checked.
	ActionUnreachable Action = "unreachable"
)

// Status is how `tender agent status` names a host's state.
type Status string

// The statuses.
const (
	StatusInSync   Status = "in-sync"
	StatusNever    Status = "never deployed"
	StatusOutdated Status = "outdated"
	StatusDrifted  Status = "drifted"
	StatusDown     Status = "down"
	StatusForced   Status = "forced"
	// StatusNeedsRun: in sync by the ledger and the probe, but
	// Options.NeedRun asked for a run.
	StatusNeedsRun    Status = "needs run"
	StatusUnreachable Status = "unreachable"
)

// Decision is the plan for one host, with the reason it was made.
type Decision struct {
	Host   string `json:"host"`
	Action Action `json:"action"`
	Status Status `json:"status"`
	Reason string `json:"reason"`
	// Code says why the host is unreachable (ActionUnreachable only).
	Code ErrorCode `json:"code,omitempty"`
	// Init is true when the host gets a full first deploy.
	Init bool `json:"init"`
	// Probed is true when the decision took a round trip to the host.
	Probed bool `json:"probed"`
}

// Deploys reports whether the decision deploys the host.
func (d Decision) Deploys() bool {
	switch d.Action {
	case ActionForce, ActionNew, ActionUpgrade, ActionRepair:
		return true
	}
	return false
}

// decideLocal makes the decisions that need no round trip, in the
// issue's order: forced, never deployed, bundle differs from the ledger.
// It returns false when only a probe of the host can decide.
func decideLocal(host string, b *Bundle, force bool, ledger []FileRecord, deployed bool) (Decision, bool) {
	d := Decision{Host: host}
	switch {
	case force:
		d.Action, d.Status, d.Reason, d.Init = ActionForce, StatusForced, "redeploy forced", !deployed
	case !deployed:
		d.Action, d.Status, d.Reason, d.Init = ActionNew, StatusNever, "no ledger entry: never deployed", true
	default:
		reason := bundleChange(b, ledger)
		if reason == "" {
			return d, false
		}
		d.Action, d.Status, d.Reason = ActionUpgrade, StatusOutdated, reason
	}
	return d, true
}

// bundleChange says how the bundle differs from the ledger rows ("" when
// it does not): a file's MD5, the set of files, or the version.
func bundleChange(b *Bundle, ledger []FileRecord) string {
	rec := map[string]FileRecord{}
	for _, r := range ledger {
		rec[r.Path] = r
	}
	var why []string
	version := ""
	for _, f := range b.Files {
		r, ok := rec[f.Dest]
		switch {
		case !ok:
			why = append(why, f.Dest+" is new in the bundle")
		case r.MD5 != f.MD5:
			why = append(why, fmt.Sprintf("%s changed (md5 %s → %s)", f.Dest, short(r.MD5), short(f.MD5)))
		}
		if ok {
			version = r.Version
		}
		delete(rec, f.Dest)
	}
	gone := make([]string, 0, len(rec))
	for p := range rec {
		gone = append(gone, p)
	}
	sort.Strings(gone)
	for _, p := range gone {
		why = append(why, p+" is no longer in the bundle")
	}
	if len(why) == 0 && version != b.Version {
		why = append(why, fmt.Sprintf("version %s → %s", version, b.Version))
	}
	return strings.Join(why, "; ")
}

// decideProbe decides from what the probe found on the host: a tracked
// file missing or different, or the agent not answering, is a repair;
// otherwise the host is up to date.
func decideProbe(host string, b *Bundle, p *ProbeResult) Decision {
	d := Decision{Host: host, Probed: true}
	var drift []string
	for _, f := range b.Files {
		switch got := p.MD5[f.Dest]; got {
		case f.MD5:
		case md5Missing:
			drift = append(drift, f.Dest+" is missing")
		case md5Unreadable:
			drift = append(drift, f.Dest+" cannot be read")
		default:
			drift = append(drift, fmt.Sprintf("%s differs on the host (md5 %s, want %s)", f.Dest, short(got), short(f.MD5)))
		}
	}
	var down []string
	if p.Port == "closed" {
		msg := fmt.Sprintf("port %d is not listening", b.Port)
		if p.PortDetail != "" {
			msg += " (" + p.PortDetail + ")"
		}
		down = append(down, msg)
	}
	if p.Health == "failed" {
		down = append(down, "the health command failed")
	}
	switch {
	case len(drift) > 0:
		d.Action, d.Status, d.Reason = ActionRepair, StatusDrifted, strings.Join(append(drift, down...), "; ")
	case len(down) > 0:
		d.Action, d.Status, d.Reason = ActionRepair, StatusDown, strings.Join(down, "; ")
	default:
		d.Action, d.Status, d.Reason = ActionSkip, StatusInSync, "files match the ledger and the agent answers"
	}
	return d
}

func short(md5 string) string {
	if len(md5) > 8 {
		return md5[:8]
	}
	return md5
}

// Summary is the plan's one-line count, as a rollout prints it first:
// "5 hosts: 1 new, 2 upgrade, 1 repair, 1 up to date".
func Summary(ds []Decision) string {
	n := map[Action]int{}
	for _, d := range ds {
		n[d.Action]++
	}
	s := fmt.Sprintf("%d hosts: %d new, %d upgrade, %d repair, %d up to date", len(ds), n[ActionNew], n[ActionUpgrade], n[ActionRepair], n[ActionSkip])
	if n[ActionForce] > 0 {
		s += fmt.Sprintf(", %d forced", n[ActionForce])
	}
	if n[ActionUnreachable] > 0 {
		s += fmt.Sprintf(", %d unreachable", n[ActionUnreachable])
	}
	return s
}
