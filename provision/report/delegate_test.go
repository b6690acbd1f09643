package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
)

// TestTextDelegateLabel: a delegated result shows "host -> delegate",
// but not when the task is delegated to its own host.
func TestTextDelegateLabel(t *testing.T) {
	var b bytes.Buffer
	ev := Text(&b, false)
	ev(provision.Event{Kind: provision.TaskStart, Task: "t"})
	ev(provision.Event{Kind: provision.HostResult, Task: "t", Host: "a", Delegate: "b", Status: provision.StatusOK})
	ev(provision.Event{Kind: provision.HostResult, Task: "t", Host: "c", Delegate: "c", Status: provision.StatusOK})
	out := b.String()
	if !strings.Contains(out, "ok: [a -> b]") || !strings.Contains(out, "ok: [c]\n") {
		t.Errorf("output:\n%s", out)
	}
}

// TestTextIgnoredUnreachable: an unreachable host that
// ignore_unreachable keeps in the play gets "...ignoring" under its
// line, as a failure ignore_errors ignores does.
func TestTextIgnoredUnreachable(t *testing.T) {
	var b bytes.Buffer
	ev := Text(&b, false)
	ev(provision.Event{Kind: provision.TaskStart, Task: "t"})
	ev(provision.Event{Kind: provision.HostResult, Task: "t", Host: "a", Status: provision.StatusUnreachable, Ignored: true,
		Result: map[string]any{"msg": "refused", "unreachable": true}})
	ev(provision.Event{Kind: provision.HostResult, Task: "t", Host: "b", Status: provision.StatusUnreachable,
		Result: map[string]any{"msg": "refused", "unreachable": true}})
	out := b.String()
	if !strings.Contains(out, "fatal: [a]: UNREACHABLE! => {\"msg\": \"refused\", \"unreachable\": true}\n...ignoring\n") ||
		strings.Count(out, "...ignoring") != 1 {
		t.Errorf("output:\n%s", out)
	}
}
