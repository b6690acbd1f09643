package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/tender-sh/tender/provision"
)

// ProfileOptions are the options of ansible.posix's profile_tasks
// callback.
type ProfileOptions struct {
	// Limit is how many tasks the summary lists (output_limit; its
	// default is 20); a negative Limit lists them all ("all").
	Limit int
	// Sort orders the summary by time: "descending" (the default),
	// "ascending", or "none" (the order the tasks first ran in).
	Sort string
	// Verbosity is the run's -v count: from 2 up the summary names each
	// task's file too.
	Verbosity int
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// ProfileTasks returns an event handler that prints what
// ansible.posix.profile_tasks adds to a run's output, written after the
// output's own handler has seen each event: after each task's banner the
// time, how long the previous task took and how long the run has taken;
// after the recap the tasks that took longest. A task that runs several
// times (serial batches) is counted once, its times added.
func ProfileTasks(w io.Writer, o ProfileOptions) func(provision.Event) {
	if o.Now == nil {
		o.Now = time.Now
	}
	start := o.Now()
	p := &profile{w: w, o: o, start: start, last: start, index: map[string]int{}, current: -1}
	return p.event
}

type profile struct {
	w           io.Writer
	o           ProfileOptions
	start, last time.Time
	tasks       []profiledTask
	index       map[string]int
	current     int // the task running, -1 for none
}

type profiledTask struct {
	name, path string
	started    time.Time
	elapsed    time.Duration
}

func (p *profile) event(e provision.Event) {
	switch e.Kind {
	case provision.TaskStart:
		now := p.o.Now()
		p.line(now)
		p.stop(now)
		key := e.Path + "\x00" + e.Task
		i, ok := p.index[key]
		if !ok {
			i = len(p.tasks)
			p.index[key] = i
			p.tasks = append(p.tasks, profiledTask{name: e.Task, path: e.Path})
		}
		p.tasks[i].started = now
		p.current = i
	case provision.PlaybookEnd:
		now := p.o.Now()
		p.line(now)
		fmt.Fprintln(p.w, filled("", '='))
		p.stop(now)
		p.current = -1
		p.summary()
	}
}

// stop adds the running task's time since it (last) started.
func (p *profile) stop(now time.Time) {
	if p.current >= 0 {
		t := &p.tasks[p.current]
		t.elapsed += now.Sub(t.started)
	}
}

// line prints profile_tasks' time line: the local time, the time since
// the last line, the time since the run began.
func (p *profile) line(now time.Time) {
	fmt.Fprintln(p.w, filled(fmt.Sprintf("%s (%s)%s%s", now.Format("Monday 02 January 2006  15:04:05 -0700"),
		clock(now.Sub(p.last)), strings.Repeat(" ", 7), clock(now.Sub(p.start))), '*'))
	p.last = now
}

func (p *profile) summary() {
	order := make([]int, len(p.tasks))
	for i := range order {
		order[i] = i
	}
	switch p.o.Sort {
	case "none":
	case "ascending":
		sort.SliceStable(order, func(a, b int) bool { return p.tasks[order[a]].elapsed < p.tasks[order[b]].elapsed })
	default:
		sort.SliceStable(order, func(a, b int) bool { return p.tasks[order[a]].elapsed > p.tasks[order[b]].elapsed })
	}
	if p.o.Limit >= 0 && len(order) > p.o.Limit {
		order = order[:p.o.Limit]
	}
	for _, i := range order {
		t := p.tasks[i]
		secs := fmt.Sprintf(" %.2fs", t.elapsed.Seconds())
		line := padRight(t.name+" ", '-', DefaultColumns-9) + padLeft(secs, '-', 9)
		if p.o.Verbosity >= 2 && t.path != "" {
			line += "\n" + padRight(t.path+" ", '-', DefaultColumns)
		}
		fmt.Fprintln(p.w, line)
	}
}

// filled is profile_tasks' banner: msg, a space and fill to 79 columns
// (at least three), and a space.
func filled(msg string, fill rune) string {
	n := DefaultColumns
	if msg != "" {
		msg += " "
		n = DefaultColumns - len([]rune(msg))
	}
	return msg + strings.Repeat(string(fill), max(n, 3)) + " "
}

// clock is Python's "%d:%02d:%02d.%03d" of hours, minutes, seconds and
// milliseconds, as profile_tasks prints a duration.
func clock(d time.Duration) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}

// padRight and padLeft are Python's format alignment ("{:-<n}",
// "{:->n}"): s filled to n characters, never cut.
func padRight(s string, fill rune, n int) string {
	return s + strings.Repeat(string(fill), max(n-len([]rune(s)), 0))
}

func padLeft(s string, fill rune, n int) string {
	return strings.Repeat(string(fill), max(n-len([]rune(s)), 0)) + s
}

// Timer returns an event handler that prints, after the recap, how long
// the run took, as ansible.posix's timer callback does.
func Timer(w io.Writer, now func() time.Time) func(provision.Event) {
	if now == nil {
		now = time.Now
	}
	start := now()
	return func(e provision.Event) {
		if e.Kind != provision.PlaybookEnd {
			return
		}
		d := now().Sub(start)
		secs := int64(d / time.Second)
		fmt.Fprintf(w, "Playbook run took %d days, %d hours, %d minutes, %d seconds\n", secs/86400, secs%86400/3600, secs%3600/60, secs%60)
	}
}
