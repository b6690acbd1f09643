package agents_test

import (
	"testing"

	"github.com/tender-sh/tender/agents"
)

// TestEventKindNames: every kind has its own name, as the JSON stream
// writes it; an unknown kind says its number.
func TestEventKindNames(t *testing.T) {
	seen := map[string]bool{}
	for k := agents.Planned; k <= agents.Pausing; k++ {
		s := k.String()
		if s == "" || seen[s] || s[0] == 'E' {
			t.Errorf("kind %d: name %q", int(k), s)
		}
		seen[s] = true
	}
	if got := agents.EventKind(99).String(); got != "EventKind(99)" {
		t.Errorf("unknown kind: %q", got)
	}
	if agents.HostFinished.String() != "host_finished" {
		t.Errorf("HostFinished is %q", agents.HostFinished)
	}
}
