package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
)

// TestJUnitCases: a suite per playbook; an ignored failure passes; a
// failure without msg is named by its rc; an unreachable host has no
// testcase; a task without shown args is named alone.
func TestJUnitCases(t *testing.T) {
	var b bytes.Buffer
	ev := JUnit(&b)
	t0 := time.Unix(100, 0)
	ev(provision.Event{Kind: provision.PlayStart, Play: "p", Playbook: "/d/a.yml"})
	ev(provision.Event{Kind: provision.TaskStart, Task: "t1", Path: "/d/a.yml:3:5", Time: t0, Args: map[string]any{"b": 2, "a": "x"}})
	ev(provision.Event{Kind: provision.HostResult, Playbook: "/d/a.yml", Host: "h1", Status: provision.StatusFailed, Ignored: true,
		Time: t0.Add(time.Second), Result: map[string]any{"msg": "m", "failed": true}})
	ev(provision.Event{Kind: provision.HostResult, Playbook: "/d/a.yml", Host: "h2", Status: provision.StatusFailed,
		Time: t0.Add(2 * time.Second), Result: map[string]any{"rc": 4, "failed": true}})
	ev(provision.Event{Kind: provision.HostResult, Playbook: "/d/a.yml", Host: "h3", Status: provision.StatusUnreachable,
		Result: map[string]any{"msg": "down"}})
	ev(provision.Event{Kind: provision.PlayStart, Play: "q", Playbook: "/d/b.yml"})
	ev(provision.Event{Kind: provision.TaskStart, Task: "t2", Path: "/d/b.yml:2:3"})
	ev(provision.Event{Kind: provision.HostResult, Playbook: "/d/b.yml", Host: "h1", Status: provision.StatusSkipped, Result: map[string]any{}})
	if b.Len() != 0 {
		t.Fatal("written before the run ended")
	}
	ev(provision.Event{Kind: provision.RunEnd})
	out := b.String()
	for _, want := range []string{
		`<testsuites disabled="0" errors="0" failures="1" tests="3" time="3.0">`,
		`<testsuite disabled="0" errors="0" failures="1" name="a" skipped="0" tests="2" time="3.0">`,
		`<testcase classname="/d/a.yml:3" name="[h1] p: t1 a=x, b=2" time="1.0">`,
		`<failure message="rc=4" type="failure">{`,
		`<testsuite disabled="0" errors="0" failures="0" name="b" skipped="1" tests="1" time="0.0">`,
		`<testcase classname="/d/b.yml:2" name="[h1] q: t2" time="0.0">`,
		"<skipped>skipped</skipped>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %s\n%s", want, out)
		}
	}
	if strings.Contains(out, "h3") {
		t.Errorf("an unreachable host has a testcase:\n%s", out)
	}
}
