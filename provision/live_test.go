package provision_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
)

// With LiveOutput a command's lines, stdout's and stderr's, arrive as
// Output events while it runs, its result is unchanged, a no_log task
// sends none, a task that prints more than MaxLiveLines sends that many
// and one notice, and a long line is cut, on either stream.
func TestLiveOutput(t *testing.T) {
	var mu sync.Mutex
	var events []provision.Event
	_, recap, err := play(t, "h ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - shell: echo one; sleep 1; echo two; echo oops >&2
      register: r
    - assert: {that: ["r.stdout == 'one\ntwo'", "r.stderr == 'oops'"]}
    - command: echo hidden
      no_log: true
    - shell: seq 1 `+"10005"+`
    - command: echo not live
      async: 10
      poll: 1
    - shell: yes x | head -c 140000 | tr -d '\n'; echo
    - shell: yes e | head -c 140000 | tr -d '\n' >&2
      register: e
    - assert: {that: ["e.stderr | length == 70000"]}
`, func(r *provision.Runner) {
		r.LiveOutput, r.Modules = true, builtin.Registry()
		r.Events = func(e provision.Event) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		}
	})
	if err != nil || recap.Failed() {
		t.Fatalf("%v %+v", err, recap)
	}
	var lines, errLines []string
	var one, firstResult time.Time
	for _, e := range events {
		switch {
		case e.Kind == provision.Output && e.Msg == "one":
			one = e.Time
		case e.Kind == provision.HostResult && firstResult.IsZero():
			firstResult = e.Time
		}
		switch {
		case e.Kind == provision.Output && e.Stderr:
			errLines = append(errLines, e.Msg)
		case e.Kind == provision.Output:
			lines = append(lines, e.Msg)
		}
	}
	if len(lines) < 2 || lines[0] != "one" || lines[1] != "two" {
		t.Fatalf("live lines %q", lines[:min(len(lines), 5)])
	}
	if firstResult.Sub(one) < 500*time.Millisecond {
		t.Errorf("'one' came %v before the task's result: not while it ran", firstResult.Sub(one))
	}
	for _, l := range lines {
		if strings.Contains(l, "hidden") || strings.Contains(l, "not live") || strings.Contains(l, "tender=") {
			t.Errorf("live line %q", l)
		}
	}
	// one, two, then the seq's 10000 and the notice, then the long line.
	if got := len(lines); got != 2+provision.MaxLiveLines+2 || !strings.Contains(lines[len(lines)-2], "live output stops after") || lines[len(lines)-3] != "10000" {
		t.Fatalf("%d live lines, last %q", got, lines[len(lines)-2])
	}
	if long := lines[len(lines)-1]; len(long) > 65<<10 || !strings.HasSuffix(long, "[line cut: the task's result holds it whole]") || !strings.HasPrefix(long, "xxxx") {
		t.Errorf("long line: %d bytes, ends %q", len(long), long[max(0, len(long)-50):])
	}
	if len(errLines) != 2 || errLines[0] != "oops" || !strings.HasPrefix(errLines[1], "eeee") || !strings.HasSuffix(errLines[1], "[line cut: the task's result holds it whole]") {
		t.Errorf("stderr lines: %d, %q", len(errLines), errLines[0])
	}
}
