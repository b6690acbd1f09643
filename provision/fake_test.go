package provision_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/transporttest"
)

// These tests run the engine against transporttest's fake hosts, which
// record every call and fail on demand.

// tripsPerTask wraps r.Events to count each host's round trips per task:
// a host's calls for a task happen after its result for the task before
// and before its result for this one.
func tripsPerTask(f *transporttest.Fake, r *provision.Runner) map[string][]string {
	seen := map[string]int{}
	for _, h := range f.Hosts() {
		seen[h] = f.Host(h).RoundTrips()
	}
	got := map[string][]string{}
	next := r.Events
	r.Events = func(e provision.Event) {
		if e.Kind == provision.HostResult && !e.IsItem {
			n := f.Host(e.Host).RoundTrips()
			got[e.Host] = append(got[e.Host], fmt.Sprintf("%s=%d", e.Task, n-seen[e.Host]))
			seen[e.Host] = n
		}
		if next != nil {
			next(e)
		}
	}
	return got
}

// TestHostGoingDownMidPlayStopsOnlyItself: a host whose connection breaks
// at its third task is counted unreachable and does nothing more, a host
// that refuses the connection is unreachable at once, and the others
// finish every task.
func TestHostGoingDownMidPlayStopsOnlyItself(t *testing.T) {
	f := transporttest.NewFake(t)
	f.Host("b").SetFaults(transporttest.Faults{DownAfter: 2})
	f.Host("d").SetFaults(transporttest.Faults{ConnectErr: errors.New("connection refused")})
	out, recap, err := play(t, "a\nb\nc\nd\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: echo one
    - command: echo two
    - command: echo three
    - command: echo four
`, func(r *provision.Runner) { withSSH(r, f) })
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]provision.Stats{
		"a": {OK: 4, Changed: 4}, "c": {OK: 4, Changed: 4},
		"b": {OK: 2, Changed: 2, Unreachable: 1}, "d": {Unreachable: 1},
	}
	for h, w := range want {
		if s := recap.Stats[h]; s == nil || *s != w {
			t.Errorf("%s: %+v, want %+v", h, s, w)
		}
	}
	if !recap.Unreachable() || recap.Failed() {
		t.Errorf("recap: unreachable %v, failed %v", recap.Unreachable(), recap.Failed())
	}
	for _, h := range []string{"b", "d"} {
		if !strings.Contains(out, "fatal: ["+h+"]: UNREACHABLE! => ") {
			t.Errorf("no UNREACHABLE line for %s:\n%s", h, out)
		}
	}
	// b was sent the third script (which found it down) and nothing after.
	if scripts := f.Host("b").Scripts(); len(scripts) != 3 {
		t.Errorf("b was sent %q", scripts)
	}
	if b := f.Host("b").Calls(); len(b) < 4 || !errors.Is(b[3].Err, transport.ErrUnreachable) || b[3].Script != "echo three" {
		t.Errorf("b's calls: %+v", b)
	}
	if got := strings.Join(f.Host("a").Scripts(), ","); got != "echo one,echo two,echo three,echo four" {
		t.Errorf("a ran %s", got)
	}
	if n := f.Host("d").Count(transporttest.OpRun); n != 0 {
		t.Errorf("d refused the connection but was sent %d scripts", n)
	}
}

// TestRoundTripsPerTask pins the engine's cost per task: one connection
// per host for the whole run, one round trip for facts and for a command,
// none for debug and set_fact, and a file written only when it differs.
func TestRoundTripsPerTask(t *testing.T) {
	f := transporttest.NewFake(t)
	inv := ""
	for _, h := range []string{"a", "b"} {
		inv += h + " root=" + f.Host(h).Root() + "\n"
	}
	pb := `
- hosts: all
  tasks:
    - command: "true"
    - copy: dest={{ root }}/motd content=hello
    - debug: msg=hi
    - set_fact: x=1
`
	wants := []string{
		"Gathering Facts=1 command=1 copy=2 debug=0 set_fact=0",
		"Gathering Facts=1 command=1 copy=1 debug=0 set_fact=0", // the file is already right
	}
	for run, want := range wants {
		var trips map[string][]string
		_, recap, err := play(t, inv, pb, func(r *provision.Runner) {
			withSSH(r, f)
			trips = tripsPerTask(f, r)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{"a", "b"} {
			if got := strings.Join(trips[h], " "); got != want {
				t.Errorf("run %d, %s: round trips %s, want %s", run+1, h, got, want)
			}
			if s := recap.Stats[h]; s.Failed+s.Unreachable != 0 {
				t.Errorf("run %d, %s: %+v", run+1, h, *s)
			}
			if n := f.Host(h).Count(transporttest.OpConnect); n != run+1 {
				t.Errorf("run %d, %s: %d connections so far, want one per run", run+1, h, n)
			}
			if fl, ok := f.Host(h).File(f.Host(h).Root() + "/motd"); !ok || string(fl.Data) != "hello" || fl.Mode != 0o644 {
				t.Errorf("run %d, %s: motd %+v", run+1, h, fl)
			}
		}
	}
}

// TestForksBoundHostsAtOnce: the engine works on as many hosts at once as
// forks allows, and no more. Each script waits (up to a bound) until the
// expected number of hosts are in flight, so the test needs no timing.
func TestForksBoundHostsAtOnce(t *testing.T) {
	for _, tc := range []struct{ forks, want int }{{0, 6}, {2, 2}, {1, 1}} {
		f := transporttest.NewFake(t)
		var mu sync.Mutex
		inFlight, peak, released := 0, 0, false
		handler := func(context.Context, *transporttest.Host, transport.Cmd) (transport.Result, error) {
			mu.Lock()
			inFlight++
			peak = max(peak, inFlight)
			released = released || inFlight >= tc.want
			mu.Unlock()
			for start := time.Now(); ; time.Sleep(time.Millisecond) {
				mu.Lock()
				done := released || time.Since(start) > 2*time.Second
				released = done
				mu.Unlock()
				if done {
					break
				}
			}
			mu.Lock()
			inFlight--
			mu.Unlock()
			return transport.Result{Stdout: []byte("ok\n")}, nil
		}
		var inv string
		for i := range 6 {
			h := f.Host(fmt.Sprint("h", i))
			h.SetHandler(handler)
			inv += h.Name() + "\n"
		}
		pb := "- hosts: all\n  gather_facts: false\n  tasks:\n    - command: a\n    - command: b\n"
		_, recap, err := play(t, inv, pb, func(r *provision.Runner) { withSSH(r, f); r.Forks = tc.forks })
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range recap.Hosts {
			if s := recap.Stats[h]; s.Changed != 2 {
				t.Errorf("forks %d, %s: %+v", tc.forks, h, *s)
			}
		}
		if peak != tc.want {
			t.Errorf("forks %d: at most %d hosts worked at once, want %d", tc.forks, peak, tc.want)
		}
	}
}
