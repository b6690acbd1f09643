package provision_test

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
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
		out, recap, h := aheadTrips(t, f, pb)
		trips := strings.Fields(tripsOf(h))[seen:]
		seen += len(trips)
		if got, want := strings.Join(trips, " "), "R+R+R+R+R R"; got != want {
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
