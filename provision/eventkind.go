package provision

import "strconv"

// eventKindNames are the kinds' names, as the JSON event stream
// (docs/JSON.md) writes them.
var eventKindNames = [...]string{PlayStart: "play_start", TaskStart: "task_start", HostResult: "host_result",
	Warning: "warning", RunEnd: "run_end", Included: "included", Retry: "retry", NoHosts: "no_hosts",
	Connecting: "connecting", PlaybookStart: "playbook_start", PlaybookEnd: "playbook_end",
	NoHostsLeft: "no_hosts_left", ModuleUsed: "module_used", Output: "output"}

// String returns the kind's name in the JSON event stream (docs/JSON.md):
// "play_start", "host_result", ...; an unknown kind is "EventKind(N)".
func (k EventKind) String() string {
	if k >= 0 && int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}
