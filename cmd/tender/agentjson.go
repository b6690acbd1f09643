package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/tender-sh/tender/agents"
)

// agentJSONEvents writes a rollout's events as JSON, one per line, for a
// control plane to follow (docs/JSON.md, "tender agent deploy --json"):
// the plan, each wave and pause, each host as it starts and ends, the
// report. Playbook events of each host are left out: at fleet size they
// would be most of the stream.
func agentJSONEvents(w io.Writer) func(agents.Event) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return func(e agents.Event) {
		m := map[string]any{"event": e.Kind.String(), "time": e.Time}
		switch e.Kind {
		case agents.Planned:
			m["summary"], m["hosts"] = e.Summary, len(e.Decisions)
		case agents.WaveStarted:
			m["wave"], m["hosts"] = e.Wave, e.Hosts
		case agents.Pausing:
			m["pause_seconds"] = e.Pause.Seconds()
		case agents.HostStarted:
			m["host"] = e.Host
			if e.Decision != nil {
				m["action"], m["reason"] = string(e.Decision.Action), e.Decision.Reason
			}
		case agents.HostFinished:
			r := e.Result
			m["host"], m["outcome"] = r.Host, string(r.Outcome)
			m["action"], m["reason"], m["duration_seconds"] = string(r.Decision.Action), r.Decision.Reason, r.Duration.Seconds()
			if r.Error != "" {
				m["error"] = r.Error
			}
			if r.Code != "" {
				m["code"] = string(r.Code)
			}
		case agents.Finished:
			r := e.Report
			m["rollout"], m["stopped"] = r.Rollout, r.Stopped
			counts := map[string]int{}
			for _, o := range []agents.Outcome{agents.HostDeployed, agents.HostFailed, agents.HostSkipped, agents.HostBusy, agents.HostNotAttempted} {
				counts[strings.ReplaceAll(string(o), " ", "_")] = r.Count(o)
			}
			m["counts"] = counts
		default:
			return
		}
		_ = enc.Encode(m)
	}
}
