// Package provision is tender's engine: a Runner runs a parsed playbook
// against an inventory, host by host in parallel, over transports and with
// modules that the embedding program injects (provision imports no concrete
// transport and no module). It reports what happens as Events and returns
// a Recap.
package provision

import (
	"maps"
	"slices"
	"time"

	"github.com/tender-sh/tender/tasks"
)

// EventKind says what an Event reports.
type EventKind int

// The kinds of event, in the order a run emits them.
const (
	// PlayStart: a play begins (Play, Hosts, and Path: the play's
	// file:line:col).
	PlayStart EventKind = iota
	// TaskStart: a task or handler begins on the play's hosts (Task set).
	TaskStart
	// HostResult: one host's outcome for a task, or for one loop item
	// (Item set) before the task's overall outcome.
	HostResult
	// Warning: something the operator should know (Msg set).
	Warning
	// RunEnd: the run is over (Recap set).
	RunEnd
	// Included: include_tasks brought in a file (Path) for Hosts, once per
	// loop item (Item, IsItem) when the include loops.
	Included
	// Retry: a task's until: did not hold on Host, which runs it again
	// (RetriesLeft set).
	Retry
	// NoHosts: the play (Play set) matched no host, and is skipped.
	NoHosts
	// Connecting: Host opens a connection (Msg says which, in Ansible's
	// words: "ESTABLISH SSH CONNECTION FOR USER: bob").
	Connecting
	// PlaybookStart: a playbook begins (Path is the playbook's, Hosts
	// unset; Msg is how many plays it holds, in Ansible's words).
	PlaybookStart
	// PlaybookEnd: a playbook is over (Path is the playbook's; Recap is
	// the run's so far). It comes before RunEnd, once per playbook.
	PlaybookEnd
	// NoHostsLeft: the play (Play set) ends early because its hosts
	// failed: any_errors_fatal, or more failures than
	// max_fail_percentage allows (Ansible's "NO MORE HOSTS LEFT").
	NoHostsLeft
	// ModuleUsed: Host runs a task (Task set) with a module that is not
	// tender's own (Msg: "Using module file PATH", as Ansible's -vvv
	// says), or with tender's own in place of a collection's module (Msg
	// names it).
	ModuleUsed
	// Output: a line a task's command wrote to stdout (or, Stderr set,
	// to stderr) on Host, as it was written (Msg, without its newline;
	// Task set), when the run asks for live output (Runner.LiveOutput).
	// A no_log task sends none.
	Output
)

// Status is a host's outcome for a task.
type Status string

// The statuses, as ansible-playbook names them.
const (
	StatusOK          Status = "ok"
	StatusChanged     Status = "changed"
	StatusSkipped     Status = "skipping"
	StatusFailed      Status = "failed"
	StatusUnreachable Status = "unreachable"
)

// Event is one thing that happened during a run. Events are delivered to
// Runner.Events one at a time, in order, from the runner's goroutines.
// Secrets never appear in an event: results of no_log tasks are censored
// and connection passwords are never part of one.
type Event struct {
	Kind EventKind
	Time time.Time
	// Playbook is the path of the playbook running, as given to Run
	// (every event the Runner emits).
	Playbook string
	// Play is the play's name (or its hosts pattern when unnamed).
	Play string
	// Hosts are the hosts a play runs on, in inventory order (PlayStart),
	// or those a warning about reaching them concerns (Warning; Host is
	// set too when there is one).
	Hosts []string
	// Task is the task's display name ("role : name"); Handler marks
	// handlers; Path is the task's file:line.
	Task    string
	Handler bool
	Path    string
	// CheckMode is, for PlayStart and TaskStart, the check_mode keyword
	// in force as Ansible's callbacks read it before templating (a
	// template counts as true), else the run's --check; for
	// PlaybookStart and PlaybookEnd, the run's --check. Reporters mark
	// banners with it (check_mode_markers).
	CheckMode bool
	// Module is the task's canonical module name (HostResult), Traits
	// how the engine treats it (what reporters show of its result), and
	// Include marks an include_tasks or include_role, whose success
	// reporters show as what it included.
	Module  string
	Traits  tasks.Traits
	Include bool
	// Args are a task's arguments as written, templates unrendered
	// (TaskStart of a module task), for reporters that name a task by
	// them as Ansible's junit callback does; nil when the task has
	// no_log at any level or an argument is not a plain value (a vault
	// value, say).
	Args map[string]any
	// Host is the host of a HostResult; Delegate the host it ran on when
	// delegated.
	Host     string
	Delegate string
	Status   Status
	// Cause is, for an unreachable HostResult, the connection's error:
	// errors.Is tells transport.ErrAuth, ErrHostKey and ErrTimeout apart.
	Cause error
	// Ignored marks a failure that ignore_errors turned into ok, or an
	// unreachable host that ignore_unreachable kept in the play.
	Ignored bool
	// Item is the loop item's label for a per-item result.
	Item any
	// IsItem marks a per-item result; LoopDone marks the result of a whole
	// loop, after its items (reporters usually show only its failure).
	IsItem   bool
	LoopDone bool
	// Result is the module's data as register: stores it (censored for
	// no_log tasks).
	Result map[string]any
	// Verbose asks the reporter to print Result even on success (debug).
	Verbose bool
	// Stderr marks an Output line the command wrote to stderr.
	Stderr bool
	// Indent asks for Result on indented lines rather than one (debug's
	// results, and every result from -vvv up), as ansible-playbook prints.
	Indent bool
	// Diff is the module's unified diff of what it changed (or would
	// change), in --diff mode; reporters print it before the result.
	Diff string
	// Msg is a warning's text or a failure's message.
	Msg string
	// RetriesLeft is how many more runs a Retry's task has.
	RetriesLeft int
	// Recap ends the run (RunEnd).
	Recap *Recap
}

// Stats counts one host's outcomes over a run, as PLAY RECAP prints them.
type Stats struct {
	OK, Changed, Unreachable, Failed, Skipped, Rescued, Ignored int
}

// Recap is the outcome of a run: per-host stats in the order hosts were
// first seen.
type Recap struct {
	Hosts []string
	Stats map[string]*Stats
	// Custom holds what set_stats recorded: per host, or under "_run" for
	// the whole run (Ansible's custom stats).
	Custom map[string]map[string]any
	// Forgiven are the hosts a meta clear_host_errors forgave that have
	// not failed or been unreachable since: Stats still counts their
	// failures, but they do not make the run fail (ansible-playbook's
	// exit status).
	Forgiven map[string]bool
}

// Failed reports whether any host failed and was not forgiven.
func (r *Recap) Failed() bool {
	for h, s := range r.Stats {
		if s.Failed > 0 && !r.Forgiven[h] {
			return true
		}
	}
	return false
}

// Unreachable reports whether any host was unreachable and was not
// forgiven.
func (r *Recap) Unreachable() bool {
	for h, s := range r.Stats {
		if s.Unreachable > 0 && !r.Forgiven[h] {
			return true
		}
	}
	return false
}

func (r *Recap) stats(host string) *Stats {
	if r.Stats == nil {
		r.Stats = map[string]*Stats{}
	}
	s, ok := r.Stats[host]
	if !ok {
		s = &Stats{}
		r.Stats[host] = s
		r.Hosts = append(r.Hosts, host)
	}
	return s
}

// clone copies r, so that an event's recap stays as it was when the run
// goes on.
func (r *Recap) clone() *Recap {
	c := &Recap{Hosts: slices.Clone(r.Hosts), Stats: make(map[string]*Stats, len(r.Stats))}
	for h, s := range r.Stats {
		v := *s
		c.Stats[h] = &v
	}
	c.Forgiven = maps.Clone(r.Forgiven)
	if r.Custom != nil {
		c.Custom = make(map[string]map[string]any, len(r.Custom))
		for k, m := range r.Custom {
			c.Custom[k] = maps.Clone(m)
		}
	}
	return c
}
