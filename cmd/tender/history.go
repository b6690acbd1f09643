package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/user"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
)

// DefaultHistoryKeep is how many runs the history keeps when
// --history-keep is not given.
const DefaultHistoryKeep = 1000

// historyFlags are tender play's and tender run's flags for the run
// history.
func historyFlags() []cli.Flag {
	return []cli.Flag{
		stateFlag(),
		&cli.BoolFlag{Name: "no-history", Usage: "do not record this run in the history (tender history)"},
		&cli.IntFlag{Name: "history-keep", Value: DefaultHistoryKeep, Usage: "how many runs the history keeps: older ones are dropped when a run ends (0 keeps them all)"},
	}
}

// historyBatch is how many results the recorder holds before it writes
// them: one transaction each, so that a large run costs the ledger a
// few writes, not one per result.
const historyBatch = 500

// maxHistoryMsg bounds a recorded result's message.
const maxHistoryMsg = 4 << 10

// recorder writes a run to the history as its events come: the run when
// it starts, its results in batches, its status and recap when it ends.
// Its events are the ones the output prints, secrets already blanked;
// store.Redact blanks password-like settings on top. A ledger that
// cannot be written costs the run a warning, never the run.
type recorder struct {
	st   store.Ledger
	id   int64
	keep int
	warn func(string)
	mu   sync.Mutex
	buf  []store.RunResult
	dead bool
}

// startHistory opens the history of --state (the ledger) and records a
// run of kind (play or run) of playbooks; nil with --no-history or when
// the ledger cannot be opened (warned about).
func startHistory(c *cli.Context, kind, playbooks string, warn func(string)) *recorder {
	if c.Bool("no-history") {
		return nil
	}
	ctx := context.Background()
	st, err := openLedger(c, false)
	if err == nil {
		{
			r := &recorder{st: st, keep: c.Int("history-keep"), warn: warn}
			login, host := "", ""
			if u, err := user.Current(); err == nil {
				login = u.Username
			}
			host, _ = os.Hostname()
			if r.id, err = st.StartRun(ctx, store.Run{Kind: kind, Command: historyCommand(commandLine(c)), Login: login, Controller: host, Playbooks: playbooks}); err == nil {
				return r
			}
			st.Close()
		}
	}
	// The default ledger is best effort (a home that cannot be
	// written): said at -v; one --state or TENDER_STATE names, always.
	if c.IsSet("state") || c.Count("verbose") > 0 {
		warn(fmt.Sprintf("this run is not recorded in the history: %s (--no-history leaves it out)", store.RedactURL(err.Error())))
	}
	return nil
}

// historyCommand is the command line, the values of -e (which may hold
// secrets) left out.
func historyCommand(args []string) string {
	out := make([]string, 0, len(args))
	hide := false
	for _, a := range args {
		switch {
		case hide:
			a, hide = "********", false
		case a == "-e" || a == "--extra-vars":
			hide = true
		case strings.HasPrefix(a, "--extra-vars="):
			a = "--extra-vars=********"
		case strings.HasPrefix(a, "-e") && !strings.HasPrefix(a, "--"):
			a = "-e********"
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}

// event records a host's result of a task (not a loop item's: the
// task's own result follows them).
func (r *recorder) event(e provision.Event) {
	if r == nil || e.Kind != provision.HostResult || e.IsItem {
		return
	}
	msg := store.Redact(e.Msg)
	if len(msg) > maxHistoryMsg {
		msg = msg[:maxHistoryMsg] + "…"
	}
	status := string(e.Status)
	if e.Ignored {
		status = "ignored"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, store.RunResult{Play: e.Play, Task: e.Task, Host: e.Host, Status: status, Msg: msg, At: e.Time})
	if len(r.buf) >= historyBatch {
		r.flushLocked()
	}
}

// flushLocked writes the results held; r.mu is held.
func (r *recorder) flushLocked() {
	if r.dead || len(r.buf) == 0 {
		r.buf = r.buf[:0]
		return
	}
	if err := r.st.AddRunResults(context.Background(), r.id, r.buf); err != nil {
		r.dead = true
		r.warn("the history stops recording this run: " + err.Error())
	}
	r.buf = r.buf[:0]
}

// finish writes what is held, how the run ended (err, the recap) and
// its recap, then drops the runs past --history-keep.
func (r *recorder) finish(recap *provision.Recap, err error) {
	if r == nil {
		return
	}
	status := "ok"
	switch {
	case errors.Is(err, provision.ErrInterrupted) || errors.Is(err, context.Canceled):
		status = "interrupted"
	case err != nil:
		status = "error"
	case recap != nil && recap.Unreachable():
		status = "unreachable"
	case recap != nil && recap.Failed():
		status = "failed"
	}
	counts := map[string]map[string]int{}
	if recap != nil {
		for h, s := range recap.Stats {
			counts[h] = map[string]int{"ok": s.OK, "changed": s.Changed, "unreachable": s.Unreachable,
				"failed": s.Failed, "skipped": s.Skipped, "rescued": s.Rescued, "ignored": s.Ignored}
		}
	}
	r.end(status, counts)
}

// end writes what is held, the run's status and its recap's counts per
// host, then drops the runs past --history-keep.
func (r *recorder) end(status string, counts map[string]map[string]int) {
	if r == nil {
		return
	}
	defer r.st.Close()
	r.mu.Lock()
	r.flushLocked()
	dead := r.dead
	r.mu.Unlock()
	if dead {
		return
	}
	b, _ := json.Marshal(counts)
	ctx := context.Background()
	if err := r.st.FinishRun(ctx, r.id, status, string(b)); err != nil {
		r.warn("the history could not record the run's end: " + err.Error())
		return
	}
	if r.keep > 0 {
		if _, err := r.st.PruneRuns(ctx, r.keep); err != nil {
			r.warn("the history could not drop old runs: " + err.Error())
		}
	}
}

// runDuration is how long a run took, "running" while it runs.
func runDuration(r store.Run) string {
	if r.Finished.IsZero() {
		return "running"
	}
	return r.Finished.Sub(r.Started).Round(time.Millisecond).String()
}

// historyPlaybooks names what a run ran: its playbooks' paths, or for
// tender run its pattern and arguments.
func historyPlaybooks(c *cli.Context, pbs []*playbooks.Playbook) string {
	if c.Command.Name != "play" {
		return strings.Join(c.Args().Slice(), " ")
	}
	names := make([]string, len(pbs))
	for i, pb := range pbs {
		names[i] = pb.Path
	}
	return strings.Join(names, " ")
}

// commandLine is the command line tender was given (run's args).
func commandLine(c *cli.Context) []string {
	if argv, ok := c.App.Metadata["argv"].([]string); ok {
		return argv
	}
	return os.Args
}

// rolloutStatus is how an agent deploy ended, as the history says it.
func rolloutStatus(rep *agents.Report, err error) string {
	switch {
	case err != nil:
		return "error"
	case rep.Failed():
		return "failed"
	}
	return "ok"
}

// rolloutCounts are an agent deploy's outcomes per host, as a recap's
// counts: deployed is changed, up to date ok, failed failed.
func rolloutCounts(rep *agents.Report) map[string]map[string]int {
	counts := map[string]map[string]int{}
	if rep == nil {
		return counts
	}
	for _, h := range rep.Hosts {
		c := map[string]int{}
		switch h.Outcome {
		case agents.HostDeployed:
			c["changed"] = 1
		case agents.HostFailed:
			c["failed"] = 1
		case agents.HostSkipped:
			c["ok"] = 1
		}
		counts[h.Host] = c
	}
	return counts
}
