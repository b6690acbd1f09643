package agents

import "strconv"

// eventKindNames are the kinds' names, as tender agent deploy --json
// writes them (docs/JSON.md); HostTask, not in that stream, is
// "host_task".
var eventKindNames = [...]string{Planned: "planned", HostStarted: "host_started", HostTask: "host_task",
	HostFinished: "host_finished", Finished: "finished", WaveStarted: "wave_started", Pausing: "pausing"}

// String returns the kind's name, as the JSON event stream writes it:
// "planned", "host_finished", ...; an unknown kind is "EventKind(N)".
func (k EventKind) String() string {
	if k >= 0 && int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}
