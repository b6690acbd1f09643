package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/urfave/cli/v2"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/tender-sh/tender/provision"
)

// wantProgress decides whether `tender play` shows live progress: only
// when stdout and stderr are one terminal, and not with --json,
// --no-progress, --live (its lines would run under the bars), NO_COLOR
// or TERM=dumb. Without a terminal the output is
// exactly what it is without the display.
func wantProgress(c *cli.Context) bool {
	if c.Bool("no-progress") || c.Bool("json") || c.Bool("live") || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return sameTerminal(c.App.Writer, c.App.ErrWriter)
}

// sameTerminal reports whether stdout and stderr are the same terminal
// (a variable so that tests can pretend they are).
var sameTerminal = func(stdout, stderr io.Writer) bool {
	fo, ok1 := stdout.(*os.File)
	fe, ok2 := stderr.(*os.File)
	if !ok1 || !ok2 {
		return false
	}
	so, err1 := fo.Stat()
	se, err2 := fe.Stat()
	return err1 == nil && err2 == nil && so.Mode()&os.ModeCharDevice != 0 && os.SameFile(so, se)
}

// progress shows a run live on stderr: a line for the current play (its
// hosts and counts so far, time spent) and a bar for the current task
// (hosts that reported of those still in the play, and the task's
// counts). While it is shown, the text report goes through it, so that
// text lines print above the bars rather than under them; it reaches the
// same terminal, since the display is only on when stdout and stderr are
// one. The bars are removed when the run ends, leaving the text.
//
// Events arrive one at a time (the Runner serialises them), so the bars
// need no lock; the counts are read by mpb's goroutine and have one.
type progress struct {
	opts []mpb.ContainerOption
	text func(provision.Event)
	w    *liveWriter

	p       *mpb.Progress // nil between runs
	playBar *mpb.Bar
	taskBar *mpb.Bar
	st      progressState
}

// newProgress returns a display writing bars with opts and the text
// report made by text (given the writer to print to) to stdout.
func newProgress(stdout io.Writer, text func(io.Writer) func(provision.Event), opts ...mpb.ContainerOption) *progress {
	w := &liveWriter{direct: stdout}
	return &progress{opts: opts, text: text(w), w: w}
}

// terminalProgress is the display for a real terminal, drawn on stderr.
func terminalProgress(stdout, stderr io.Writer, text func(io.Writer) func(provision.Event)) *progress {
	return newProgress(stdout, text, mpb.WithOutput(stderr), mpb.WithAutoRefresh())
}

// event shows e and passes it on to the text report.
func (pg *progress) event(e provision.Event) {
	switch e.Kind {
	case provision.PlayStart:
		pg.startPlay(e)
	case provision.TaskStart:
		pg.startTask(e)
	case provision.HostResult:
		if !e.IsItem && pg.taskBar != nil {
			pg.st.result(e)
			pg.taskBar.Increment()
		}
	case provision.PlaybookEnd, provision.RunEnd:
		// The recap goes straight to stdout; the next playbook's first
		// play shows the bars again.
		pg.close()
	}
	pg.text(e)
}

func (pg *progress) startPlay(e provision.Event) {
	pg.endTask()
	if pg.playBar != nil {
		pg.playBar.Abort(true)
	}
	if pg.p == nil {
		pg.p = mpb.New(pg.opts...)
		pg.w.set(pg.p)
	}
	pg.st.startPlay(e)
	pg.playBar = pg.p.New(0, mpb.NopStyle(), mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(decor.Any(func(decor.Statistics) string { return pg.st.playLine() })),
		mpb.AppendDecorators(decor.Elapsed(decor.ET_STYLE_MMSS, decor.WC{W: 6})))
}

func (pg *progress) startTask(e provision.Event) {
	pg.endTask()
	if pg.p == nil {
		return
	}
	t, total := pg.st.startTask(e)
	pg.taskBar = pg.p.New(int64(total), mpb.BarStyle(), mpb.BarRemoveOnComplete(),
		mpb.PrependDecorators(decor.Name(t.name, decor.WCSyncSpaceR)),
		mpb.AppendDecorators(decor.CountersNoUnit(" %d/%d hosts "), decor.Any(func(decor.Statistics) string { return t.String() })))
}

// endTask removes the current task's bar, whether or not every host
// reported (a handler or run_once task reports for fewer).
func (pg *progress) endTask() {
	if pg.taskBar != nil {
		pg.taskBar.Abort(true)
		pg.taskBar = nil
	}
}

// close removes the bars and stops the display; text goes straight to
// stdout again. A later PlayStart (the next playbook) starts it anew.
func (pg *progress) close() {
	if pg.p == nil {
		return
	}
	pg.endTask()
	if pg.playBar != nil {
		pg.playBar.Abort(true)
		pg.playBar = nil
	}
	pg.p.Wait()
	pg.w.set(nil)
	pg.p = nil
}

// liveWriter writes through the display while it is shown, and straight
// to stdout otherwise.
type liveWriter struct {
	mu     sync.Mutex
	direct io.Writer
	live   io.Writer
}

func (w *liveWriter) set(live io.Writer) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.live = live
}

func (w *liveWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	live := w.live
	w.mu.Unlock()
	if live != nil {
		n, err := live.Write(b)
		if !errors.Is(err, mpb.ErrDone) {
			return n, err
		}
	}
	return w.direct.Write(b)
}

// progressState is what the bars print, updated from events and read by
// mpb's goroutine.
type progressState struct {
	mu    sync.Mutex
	play  string
	hosts int
	gone  map[string]bool // hosts out of the play: failed or unreachable
	playN counts          // the play's counts so far
	task  *taskState      // the current task's, nil before the first
}

// taskState is one task's bar: its name and counts. Each bar keeps its
// own, so that a bar still drawn after the next task began shows its
// task's numbers.
type taskState struct {
	name string
	mu   sync.Mutex
	n    counts
}

func (t *taskState) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n.String()
}

type counts struct{ ok, changed, failed, unreachable, skipped int }

func (c *counts) add(s provision.Status) {
	switch s {
	case provision.StatusOK:
		c.ok++
	case provision.StatusChanged:
		c.changed++
	case provision.StatusFailed:
		c.failed++
	case provision.StatusUnreachable:
		c.unreachable++
	case provision.StatusSkipped:
		c.skipped++
	}
}

// String prints the counts; skipped only when some host skipped.
func (c counts) String() string {
	s := fmt.Sprintf("ok=%d changed=%d failed=%d unreachable=%d", c.ok, c.changed, c.failed, c.unreachable)
	if c.skipped > 0 {
		s += fmt.Sprintf(" skipped=%d", c.skipped)
	}
	return s
}

func (s *progressState) startPlay(e provision.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.play, s.hosts, s.gone, s.playN, s.task = e.Play, len(e.Hosts), map[string]bool{}, counts{}, nil
}

// startTask starts counting a task and returns its state and how many
// hosts are still in the play.
func (s *progressState) startTask(e provision.Event) (*taskState, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kind := "TASK"
	if e.Handler {
		kind = "HANDLER"
	}
	s.task = &taskState{name: kind + " [" + clipName(e.Task) + "]"}
	return s.task, max(s.hosts-len(s.gone), 0)
}

// result counts a host's outcome for the task; a host that failed (not
// ignored) or became unreachable leaves the play. An ignored failure
// counts as ok, as the host goes on.
func (s *progressState) result(e provision.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := e.Status
	if st == provision.StatusFailed && e.Ignored {
		st = provision.StatusOK
	}
	s.playN.add(st)
	if s.task != nil {
		s.task.mu.Lock()
		s.task.n.add(st)
		s.task.mu.Unlock()
	}
	if st == provision.StatusFailed || st == provision.StatusUnreachable {
		s.gone[e.Host] = true
	}
}

func (s *progressState) playLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	line := fmt.Sprintf("PLAY [%s] %d hosts", clipName(s.play), s.hosts)
	if n := len(s.gone); n > 0 {
		line += fmt.Sprintf(" (%d out)", n)
	}
	return line + "  " + s.playN.String() + " "
}

// clipName shortens a long play or task name so that a bar fits a line.
func clipName(s string) string {
	const most = 32
	if r := []rune(s); len(r) > most {
		return string(r[:most-1]) + "…"
	}
	return s
}
