package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
)

// fakeClock returns times from start, each call later by the next step.
func fakeClock(start time.Time, steps ...time.Duration) func() time.Time {
	now := start
	return func() time.Time {
		t := now
		if len(steps) > 0 {
			now, steps = now.Add(steps[0]), steps[1:]
		}
		return t
	}
}

// TestProfileTasks: the lines are ansible.posix.profile_tasks' (2.14's
// Debian package, recorded by hand with callbacks_enabled =
// profile_tasks, timer): the time line after each banner, and after the
// recap a closing time line, a rule and the tasks by time; a task run in
// two batches counts once.
func TestProfileTasks(t *testing.T) {
	start := time.Date(2026, 11, 29, 3, 8, 11, 0, time.UTC)
	var b bytes.Buffer
	clock := fakeClock(start, 29*time.Millisecond, 1222*time.Millisecond, 43*time.Millisecond, 100*time.Millisecond, 500*time.Millisecond)
	h := ProfileTasks(&b, ProfileOptions{Limit: 20, Now: clock})
	h(provision.Event{Kind: provision.TaskStart, Task: "first", Path: "pb.yml:4"})
	h(provision.Event{Kind: provision.TaskStart, Task: "debug", Path: "pb.yml:6"})
	h(provision.Event{Kind: provision.TaskStart, Task: "first", Path: "pb.yml:4"})
	h(provision.Event{Kind: provision.TaskStart, Task: "h", Path: "pb.yml:9", Handler: true})
	h(provision.Event{Kind: provision.PlaybookEnd})
	want := "" +
		"Sunday 29 November 2026  03:08:11 +0000 (0:00:00.029)       0:00:00.029 ******* \n" +
		"Sunday 29 November 2026  03:08:12 +0000 (0:00:01.222)       0:00:01.251 ******* \n" +
		"Sunday 29 November 2026  03:08:12 +0000 (0:00:00.043)       0:00:01.294 ******* \n" +
		"Sunday 29 November 2026  03:08:12 +0000 (0:00:00.100)       0:00:01.394 ******* \n" +
		"Sunday 29 November 2026  03:08:12 +0000 (0:00:00.500)       0:00:01.894 ******* \n" +
		"=============================================================================== \n" +
		"first ------------------------------------------------------------------- 1.32s\n" +
		"h ----------------------------------------------------------------------- 0.50s\n" +
		"debug ------------------------------------------------------------------- 0.04s\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	b.Reset()
	h = ProfileTasks(&b, ProfileOptions{Limit: 1, Sort: "ascending", Verbosity: 2, Now: fakeClock(start, time.Second, 2*time.Second, time.Second)})
	h(provision.Event{Kind: provision.TaskStart, Task: "a", Path: "pb.yml:4"})
	h(provision.Event{Kind: provision.TaskStart, Task: "b", Path: "pb.yml:6"})
	h(provision.Event{Kind: provision.PlaybookEnd})
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	got := strings.Join(lines[len(lines)-2:], "\n")
	if want := "b ----------------------------------------------------------------------- 1.00s\n" +
		"pb.yml:6 ----------------------------------------------------------------------"; got != want {
		t.Errorf("ascending, one, with paths:\n%s\nwant\n%s", got, want)
	}
}

func TestTimer(t *testing.T) {
	var b bytes.Buffer
	start := time.Date(2026, 11, 29, 3, 8, 11, 0, time.UTC)
	h := Timer(&b, fakeClock(start, 26*time.Hour+3*time.Minute+4500*time.Millisecond))
	h(provision.Event{Kind: provision.TaskStart, Task: "a"})
	h(provision.Event{Kind: provision.PlaybookEnd})
	if want := "Playbook run took 1 days, 2 hours, 3 minutes, 4 seconds\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
