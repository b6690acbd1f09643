package agents

import (
	"time"

	"github.com/tender-sh/tender/provision"
)

// EventKind says what an Event reports.
type EventKind int

// The kinds of event, in the order a rollout emits them.
const (
	// Planned: the plan is made (Summary, Decisions set).
	Planned EventKind = iota
	// HostStarted: a host's deploy begins (Host, Decision set).
	HostStarted
	// HostTask: a playbook event of a host's deploy (Host, Task set).
	HostTask
	// HostFinished: a host's deploy ended (Host, Result set).
	HostFinished
	// Finished: the rollout is over (Report set).
	Finished
	// WaveStarted: a wave of deploys begins (Wave, its number from 1, and
	// Hosts, how many it holds).
	WaveStarted
	// Pausing: the rollout waits Pause before its next wave.
	Pausing
)

// Event is progress of a rollout, for a UI or a log.
type Event struct {
	Kind      EventKind
	Time      time.Time
	Summary   string
	Decisions []Decision
	Host      string
	Decision  *Decision
	Task      *provision.Event
	Result    *HostResult
	Report    *Report
	Wave      int
	Hosts     int
	Pause     time.Duration
}

// Outcome is how a host fared in a rollout.
type Outcome string

// The outcomes.
const (
	HostDeployed     Outcome = "deployed"
	HostFailed       Outcome = "failed"
	HostSkipped      Outcome = "skipped"       // up to date
	HostBusy         Outcome = "busy"          // another process holds its lease
	HostNotAttempted Outcome = "not attempted" // the rollout stopped first (max-fail, a failed canary or wave)
)

// HostResult is one host's part of a rollout.
type HostResult struct {
	Host     string        `json:"host"`
	Decision Decision      `json:"decision"`
	Outcome  Outcome       `json:"outcome"`
	Error    string        `json:"error,omitempty"`
	Code     ErrorCode     `json:"code,omitempty"` // why it failed, for a program; "" unless failed
	Duration time.Duration `json:"duration"`
}

// Report is what a rollout did.
type Report struct {
	Rollout int64        `json:"rollout"`
	Summary string       `json:"summary"`
	Hosts   []HostResult `json:"hosts"`
	// Stopped is true when --max-fail stopped scheduling hosts.
	Stopped bool `json:"stopped"`
}

// Count returns how many hosts had outcome o.
func (r *Report) Count(o Outcome) int {
	n := 0
	for _, h := range r.Hosts {
		if h.Outcome == o {
			n++
		}
	}
	return n
}

// Failed reports whether any host failed or was not attempted.
func (r *Report) Failed() bool {
	return r.Stopped || r.Count(HostFailed) > 0
}
