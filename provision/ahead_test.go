package provision_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/transporttest"
)

// aheadTrips plays pb on f's host a, builtin modules and all.
func aheadTrips(t *testing.T, f *transporttest.Fake, pb string) (string, *provision.Recap, *transporttest.Host) {
	t.Helper()
	h := f.Host("a")
	out, recap, err := play(t, "a root="+h.Root()+"\n", pb, func(r *provision.Runner) {
		withSSH(r, f)
		r.Modules = builtin.Registry()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, recap, h
}

// nextTrips plays pb on f's host a again, as aheadTrips, and returns
// the round trips of this play alone (those after the first *seen,
// which it moves on).
func nextTrips(t *testing.T, f *transporttest.Fake, pb string, seen *int) (string, string, *provision.Recap, *transporttest.Host) {
	t.Helper()
	out, recap, h := aheadTrips(t, f, pb)
	trips := strings.Fields(tripsOf(h))[*seen:]
	*seen += len(trips)
	return strings.Join(trips, " "), out, recap, h
}

// tripsOf is h's Runs as R, a space between round trips and a + before a
// Run sent in the write of the one before it.
func tripsOf(h *transporttest.Host) string {
	var b strings.Builder
	for _, c := range h.Calls() {
		if c.Op != transporttest.OpRun {
			continue
		}
		if c.Queued {
			b.WriteString("+")
		} else if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString("R")
	}
	return b.String()
}

// TestTasksSentAhead: a run of tasks whose outcome nothing after them
// reads goes to the host in one round trip, and the result is as ever.
func TestTasksSentAhead(t *testing.T) {
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - file: path={{ root }}/d state=directory
    - copy: dest={{ root }}/d/f content=hello
    - command: touch {{ root }}/d/g creates={{ root }}/d/g
    - file: path={{ root }}/d/f mode=0600
    - stat: path={{ root }}/d/f
      register: st
    - command: "true"
`
	f := transporttest.NewFake(t)
	seen := 0
	for run, changed := range []int{5, 1} {
		got, out, recap, _ := nextTrips(t, f, pb, &seen)
		if want := "R+R+R+R+R R"; got != want {
			t.Errorf("run %d: round trips %s, want %s\n%s", run+1, got, want, out)
		}
		if s := recap.Stats["a"]; s.Failed != 0 || s.OK != 6 || s.Changed != changed {
			t.Errorf("run %d: %+v\n%s", run+1, *s, out)
		}
		if strings.Contains(out, "WARNING") {
			t.Errorf("run %d: %s", run+1, out)
		}
	}
}

// TestLineinfileSentAhead: a lineinfile task whose host finds its line
// in place ends there (its script is final), so the tasks after it go in
// the same write, found by the line or by a regexp that is a literal;
// one with another regexp is read and decided on the controller, and
// ends the write.
func TestLineinfileSentAhead(t *testing.T) {
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - file: path={{ root }}/d state=directory
    - lineinfile: path={{ root }}/d/conf line=a=1 create=true
    - lineinfile: path={{ root }}/d/conf line=b=2
    - copy: dest={{ root }}/d/v content=1
    - lineinfile: path={{ root }}/d/conf line=a=1 regexp=^a=
    - lineinfile: path={{ root }}/d/conf line=a=1 regexp=^a.
    - command: "true"
`
	f := transporttest.NewFake(t)
	seen := 0
	for run, changed := range []int{5, 1} {
		got, out, recap, h := nextTrips(t, f, pb, &seen)
		if run == 1 && got != "R+R+R+R+R+R R" {
			t.Errorf("no-op run: round trips %s, want R+R+R+R+R+R R\n%s", got, out)
		}
		if s := recap.Stats["a"]; s.Failed != 0 || s.OK != 7 || s.Changed != changed {
			t.Errorf("run %d: %+v\n%s", run+1, *s, out)
		}
		if fl, ok := h.File(h.Root() + "/d/conf"); !ok || string(fl.Data) != "a=1\nb=2\n" {
			t.Errorf("run %d: conf %+v", run+1, fl)
		}
	}
}

// TestTasksSentAheadStop: a task sent ahead does not run once one before
// it failed; under ignore_errors the next task runs all the same, sent
// again at its turn; a false when: skips a task and the run of tasks
// goes on past it; what reads a task's outcome, or could read another
// value at its turn, is not sent ahead.
func TestTasksSentAheadStop(t *testing.T) {
	for _, tc := range []struct {
		name, tasks, trips string
		files              []string // paths under root that must exist after the play
		absent             []string // and that must not
		failed             int
	}{
		{"failure", `
    - file: path={{ root }}/a state=directory
    - file: path={{ root }}/b state=file
    - file: path={{ root }}/c state=directory
`, "R+R", []string{"a"}, []string{"c"}, 1},
		{"ignore_errors", `
    - file: path={{ root }}/a state=directory
    - file: path={{ root }}/b state=file
      ignore_errors: true
    - file: path={{ root }}/c state=directory
    - file: path={{ root }}/d state=directory
`, "R+R R+R", []string{"a", "c", "d"}, nil, 0},
		{"when", `
    - file: path={{ root }}/a state=directory
    - file: path={{ root }}/b state=directory
      when: false
    - file: path={{ root }}/c state=directory
`, "R+R", []string{"a", "c"}, []string{"b"}, 0},
		{"register", `
    - file: path={{ root }}/a state=directory
      register: r
    - file: path={{ root }}/b state=directory
      when: r is changed
`, "R R", []string{"a", "b"}, nil, 0},
		{"lookup", `
    - file: path={{ root }}/a state=directory
    - file: path={{ root }}/{{ lookup('env', 'NOSUCHVAR') }}b state=directory
    - file: path={{ root }}/c state=directory
`, "R R+R", []string{"a", "b", "c"}, nil, 0},
		{"play_hosts", `
    - file: path={{ root }}/a state=directory
    - file: path={{ root }}/b{{ ansible_play_hosts | length }} state=directory
`, "R R", []string{"a", "b1"}, nil, 0},
		{"any_errors_fatal", `
    - file: path={{ root }}/a state=directory
      any_errors_fatal: true
    - file: path={{ root }}/b state=directory
`, "R R", []string{"a", "b"}, nil, 0},
		{"set_fact", `
    - file: path={{ root }}/a state=directory
    - set_fact: x=b
    - file: path={{ root }}/{{ x }} state=directory
`, "R R", []string{"a", "b"}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := transporttest.NewFake(t)
			out, recap, h := aheadTrips(t, f, "- hosts: all\n  gather_facts: false\n  tasks:"+tc.tasks)
			if got := tripsOf(h); got != tc.trips {
				t.Errorf("round trips %s, want %s\n%s", got, tc.trips, out)
			}
			if s := recap.Stats["a"]; s.Failed != tc.failed {
				t.Errorf("%+v\n%s", *s, out)
			}
			for _, p := range tc.files {
				if _, ok := h.File(h.Root() + "/" + p); !ok {
					t.Errorf("%s is missing\n%s", p, out)
				}
			}
			for _, p := range tc.absent {
				if _, ok := h.File(h.Root() + "/" + p); ok {
					t.Errorf("%s was made\n%s", p, out)
				}
			}
			if strings.Contains(out, "ahead of its turn") {
				t.Error(out)
			}
		})
	}
}

// plainDialer hides transport.Ahead from the fake's connections: every
// script goes on its own.
type plainDialer struct{ f *transporttest.Fake }

type plainConn struct{ transport.Conn }

func (d plainDialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	c, err := d.f.Connect(ctx, t)
	if err != nil {
		return nil, err
	}
	return plainConn{c}, nil
}

// TestTasksSentAheadSameOutcome: a play with blocks, rescue, handlers,
// conditions, failures and two hosts gives the same output, recap and
// files whether its tasks are sent ahead or one at a time, and the
// first way takes fewer round trips.
func TestTasksSentAheadSameOutcome(t *testing.T) {
	pb := `
- hosts: all
  gather_facts: false
  handlers:
    - name: restart
      file: path={{ root }}/restarted state=touch
  tasks:
    - file: path={{ root }}/d state=directory
    - copy: dest={{ root }}/d/conf content="{{ inventory_hostname }}\n"
      notify: restart
    - command: cat {{ root }}/d/conf
      changed_when: false
    - block:
        - file: path={{ root }}/d/b1 state=directory
        - file: path={{ root }}/d/missing state=file
          when: inventory_hostname == 'b'
        - file: path={{ root }}/d/b3 state=directory
      rescue:
        - file: path={{ root }}/d/rescued state=directory
        - command: touch {{ root }}/d/r2
      always:
        - stat: path={{ root }}/d/b3
    - file: path={{ root }}/d/skipped state=directory
      when: inventory_hostname == 'nobody'
    - shell: test -e {{ root }}/d/conf && echo yes
    - file: path={{ root }}/d/nope state=file
      ignore_errors: true
    - file: path={{ root }}/d/last mode=0700 state=directory
`
	type outcome struct {
		out   string
		trips int
		files map[string][]string
	}
	runWith := func(plain bool) outcome {
		f := transporttest.NewFake(t)
		inv := ""
		for _, h := range []string{"a", "b"} {
			inv += h + " root=" + f.Host(h).Root() + "\n"
		}
		out, _, err := play(t, inv, pb, func(r *provision.Runner) {
			var d transport.Dialer = f
			if plain {
				d = plainDialer{f}
			}
			withSSH(r, d)
			r.Modules = builtin.Registry()
		})
		if err != nil {
			t.Fatal(err)
		}
		o := outcome{out: strings.ReplaceAll(out, f.Host("a").Root(), "ROOT-a"), files: map[string][]string{}}
		o.out = strings.ReplaceAll(o.out, f.Host("b").Root(), "ROOT-b")
		for _, h := range []string{"a", "b"} {
			o.trips += f.Host(h).RoundTrips()
			for _, p := range []string{"d", "d/conf", "d/b1", "d/b3", "d/rescued", "d/r2", "d/skipped", "d/last", "restarted"} {
				if fl, ok := f.Host(h).File(f.Host(h).Root() + "/" + p); ok {
					o.files[h] = append(o.files[h], fmt.Sprintf("%s %o", p, fl.Mode.Perm()))
				}
			}
		}
		return o
	}
	ahead, plain := runWith(false), runWith(true)
	if sortedBlocks(ahead.out) != sortedBlocks(plain.out) {
		t.Errorf("output sent ahead:\n%s\none at a time:\n%s", ahead.out, plain.out)
	}
	if fmt.Sprint(ahead.files) != fmt.Sprint(plain.files) {
		t.Errorf("files sent ahead %v, one at a time %v", ahead.files, plain.files)
	}
	if ahead.trips >= plain.trips {
		t.Errorf("round trips: %d sent ahead, %d one at a time", ahead.trips, plain.trips)
	}
	t.Logf("round trips for both hosts: %d sent ahead, %d one at a time", ahead.trips, plain.trips)
}

// sortedBlocks is out with the lines of each blank-line-separated block
// sorted: the hosts of a task report in the order they finish.
func sortedBlocks(out string) string {
	blocks := strings.Split(out, "\n\n")
	for i, b := range blocks {
		lines := strings.Split(b, "\n")
		slices.Sort(lines)
		blocks[i] = strings.Join(lines, "\n")
	}
	return strings.Join(blocks, "\n\n")
}

// TestTasksSentAheadCaptureBounded: a module that tries again after an
// error (wait_for) gives up its run for a script at once: the task
// before it does not wait for wait_for's timeout.
func TestTasksSentAheadCaptureBounded(t *testing.T) {
	f := transporttest.NewFake(t)
	start := time.Now()
	out, recap, _ := aheadTrips(t, f, `
- hosts: all
  gather_facts: false
  tasks:
    - file: path={{ root }}/a state=directory
    - wait_for: path={{ root }}/a timeout=20
`)
	if s := recap.Stats["a"]; s.OK != 2 || s.Failed != 0 {
		t.Errorf("%+v\n%s", *s, out)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the play took %v: the task before wait_for waited for its timeout", took)
	}
}
