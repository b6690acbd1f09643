package provision

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/vault"
)

// DefaultForks is how many hosts run at once when Runner.Forks is zero:
// high enough that a fleet of a few dozen hosts runs all at once.
const DefaultForks = 50

// Runner runs playbooks. Fill it in and call Run (blocks) or Start
// (returns at once). A Runner may run several playbooks, one after the
// other; its fields must not change while a run is in progress.
type Runner struct {
	// Inventory holds the hosts and their variables. add_host and
	// group_by change it in place, as Ansible's in-memory inventory: give
	// each run its own when that matters.
	Inventory *inventory.Inventory
	// Modules are the modules tasks may use.
	Modules *tasks.Registry
	// Sandbox bounds what the playbook may do on the controller: which
	// lookups run, which controller files lookups, templates, modules
	// and connections (the key files a host's variables name, through
	// transport.Target.Files) read and write, which environment
	// variables expressions see, whether tasks run on the controller
	// (delegate_to: localhost, a local connection). A refusal fails the
	// task that attempts it. Nil allows everything, as Ansible; give
	// playbooks.Load the same policy, for the files the playbook names.
	Sandbox *sandbox.Policy
	// Plugins, when set, gives a playbook's filters and tests that
	// tender does not ship (its Python plugins, through a bridge: see
	// playbooks/pyplugins); nil gives none, and a template naming one
	// fails as Ansible's does for a plugin it cannot load.
	Plugins func(pb *playbooks.Playbook) expr.PluginSource
	// ActionPlugins runs the action plugins of the content and of
	// collections (Python for Ansible's controller); nil refuses them.
	ActionPlugins ActionPluginRunner
	// Decrypt opens Ansible Vault data (a vault.Keyring's Decrypt fits
	// it): vaulted vars_files and !vault values in them; modules get it
	// as tasks.Env.Decrypt (include_vars, copy, template). Nil refuses
	// vaulted data.
	Decrypt func(vaulttext []byte) ([]byte, error)
	// DuplicateKeys is what a key given twice in a mapping of a vars
	// file (vars_files, include_vars) does: Ansible's
	// DUPLICATE_YAML_DICT_KEY, by default a warning.
	DuplicateKeys yaml11.DuplicatePolicy
	// NoLogValues, when set, learns what every task with no_log handles:
	// its rendered arguments and its result (each string whole, and
	// the lines and YAML values of a multi-line one; see
	// vault.Censor.AddValue), before the task's event is emitted. A
	// caller that keeps text beyond the run (the agents ledger) blanks
	// them in it; events themselves already hide a no_log task's
	// arguments and result.
	NoLogValues *vault.Censor
	// Connections are the connection types hosts may use, by name:
	// ansible_connection, the connection keyword and Defaults.Connection
	// pick one (its default type, ssh, when none does), through
	// ResolveConnection. Its local type (local) also serves delegate_to:
	// localhost. A type nobody
	// registered fails the hosts that ask for it, and only them.
	Connections *transport.Connections
	// Keys are private keys held in memory, by inventory hostname: the
	// host's connections offer them before any key file its variables
	// name (transport.Target.Keys). AddTarget fills it. They never
	// become variables, so no template, event or result can show them.
	Keys map[string][]transport.Key
	// FactCache keeps hosts' facts between runs (Ansible's fact_caching:
	// see JSONFileCache); nil keeps them for this run only, as Ansible's
	// memory cache. FlushCache forgets every inventory host's cached
	// facts before the first play (--flush-cache).
	FactCache  FactCache
	FlushCache bool
	// Defaults are what every play starts from (ansible-playbook's -u, -b,
	// -c, --force-handlers and their settings).
	Defaults PlayDefaults
	// Forks bounds how many hosts work at once (0 means DefaultForks).
	Forks int
	// HashMerge is Ansible's hash_behaviour=merge (DEFAULT_HASH_BEHAVIOUR):
	// a dict variable defined at several precedence levels is the
	// recursive merge of them all, higher levels winning key by key,
	// instead of the highest level's dict alone. Give the inventory the
	// same (inventory.Options.HashMerge).
	HashMerge bool
	// Jinja2Native is Ansible's jinja2_native (DEFAULT_JINJA2_NATIVE):
	// a playbook template's output is a Python value as Jinja's native
	// environment makes it ("{{ '12' }}" is the integer 12, see
	// expr.Env.Native), and set_fact keeps "yes" and "no" as strings.
	// Template files are text either way.
	Jinja2Native bool
	// StartAt starts the run at the first task whose name matches it
	// (equal, or as a shell glob; "role : name" too), as --start-at-task:
	// the tasks before it, in this play and earlier ones, do not run.
	// When no task matches, RunAll returns a *StartAtError with the recap.
	StartAt string
	// Step, when set, is asked before each task (--step), task being its
	// display name: StepNo skips the task on every host, StepContinue runs
	// it and stops asking until the next play. An error ends the run.
	Step func(ctx context.Context, task string) (StepAnswer, error)
	// InventorySources are the inventory sources the run was given (-i,
	// or the configured default), for ansible_inventory_sources: paths
	// absolute, host lists ("a,b,") as written. Nil leaves the variable
	// undefined.
	InventorySources []string
	// Limit further restricts every play's hosts (--limit).
	Limit string
	// Tags selects tasks (--tags / --skip-tags).
	Tags playbooks.TagFilter
	// ExtraVars (-e) win over every other variable.
	ExtraVars map[string]any
	// Prompt asks the operator for a play's vars_prompt variable: it
	// shows msg and returns the line typed (without echo when private).
	// Nil means there is no one to ask: as ansible-playbook without a
	// terminal, the run warns and takes the default.
	Prompt func(ctx context.Context, msg string, private bool) (string, error)
	// LiveOutput sends each line a task's command (command, shell)
	// writes to stdout as an Output event as it is written, up to
	// MaxLiveLines a task; no_log tasks send none. Results are the same
	// either way. Off, as in Ansible, a task's output comes with its
	// result.
	LiveOutput bool
	// Check runs in check mode: modules change nothing. Diff asks modules
	// for diffs.
	Check, Diff bool
	// Verbosity is the -v count: at 1 or more every result is reported in
	// full, and debug tasks with a verbosity: at or below it run.
	Verbosity int
	// Events receives every event, one at a time, in order. Nil discards.
	Events func(Event)
	// Drain, when closed, asks the run to stop gently (the first Ctrl-C):
	// no task starts on any host, the running ones finish, handlers do not
	// run, and Run returns ErrInterrupted. Cancelling ctx stops the running
	// tasks too.
	Drain <-chan struct{}
	// Config is Ansible's configuration as the run reports it (the config
	// lookup): config.Load reads it as ansible-playbook does; nil means
	// config.Defaults(), every setting at its documented default. tender
	// does not yet apply these settings to its own behaviour.
	Config *config.Config
	// TemplateLimits bound the memory built and the wall time of each
	// evaluation of a template or an expression (a task's argument, a
	// when:, a loop...); past one, the task fails on that host (see
	// expr.Limits). The zero value means expr's defaults, 256 MiB and 30 s.
	TemplateLimits expr.Limits
}

// config is r.Config, or the documented defaults.
func (r *Runner) config() *config.Config {
	if r.Config != nil {
		return r.Config
	}
	return config.Defaults()
}

// ErrInterrupted is Run's error when Drain stopped the run.
var ErrInterrupted = errors.New("interrupted: no task was started after the interrupt, the running ones finished")

// errStopped is the failure of a task whose run was cancelled while it ran.
var errStopped = errors.New("interrupted: the task was stopped before it finished")

// draining reports whether Drain is closed.
func (rn *run) draining() bool {
	if rn.r.Drain == nil {
		return false
	}
	select {
	case <-rn.r.Drain:
		return true
	default:
		return false
	}
}

// Run runs every play of pb and returns the recap. A host that fails or
// cannot be reached stops only itself; Run's error is for problems that
// stop the whole run (a play whose hosts pattern is invalid, ctx ended).
// When ctx ends, every host stops within the time its current step takes
// to notice the cancellation, and no file is left half written (the
// transports' Put is atomic).
func (r *Runner) Run(ctx context.Context, pb *playbooks.Playbook) (*Recap, error) {
	return r.RunAll(ctx, pb)
}

// RunAll runs playbooks one after the other as ansible-playbook given
// several does: as one run, whose facts, registered variables and failed
// hosts carry from one playbook to the next. A PlaybookEnd event follows
// each playbook, with the recap so far, and one RunEnd ends the run; no
// playbook starts once a host failed or was unreachable. Each playbook's
// directory is made the inventory's playbook directory (its group_vars/
// and host_vars/ count) while it runs.
func (r *Runner) RunAll(ctx context.Context, pbs ...*playbooks.Playbook) (*Recap, error) {
	if r.Inventory == nil || r.Modules == nil {
		return nil, errors.New("provision: Runner needs an Inventory and Modules")
	}
	if err := r.Sandbox.Validate(); err != nil {
		return nil, err
	}
	rn := &run{r: r, recap: &Recap{}, hosts: map[string]*hostRun{}}
	rn.cwd, _ = os.Getwd()
	rn.startAt.pattern = r.StartAt
	defer rn.closeAll()
	if r.FlushCache {
		if err := rn.flushFactCache(); err != nil {
			return rn.recap, err
		}
	}
	for _, pb := range pbs {
		rn.pb, rn.plugins = pb, nil
		if r.Plugins != nil {
			rn.plugins = r.Plugins(pb)
		}
		if pb.Path != "" {
			if err := r.Inventory.SetPlaybookDir(filepath.Dir(pb.Path)); err != nil {
				return rn.recap, err
			}
		}
		rn.emit(Event{Kind: PlaybookStart, Path: pb.Path, Msg: fmt.Sprintf("%d plays in %s", len(pb.Plays), pb.Path), CheckMode: r.Check})
		failed, err := rn.playbook(ctx, pb)
		var se *strategyError
		var pe *PlayError
		if errors.As(err, &se) || errors.As(err, &pe) {
			return rn.recap, err // no recap, as ansible-playbook's
		}
		rn.emit(Event{Kind: PlaybookEnd, Path: pb.Path, Recap: rn.recap.clone(), CheckMode: r.Check})
		if err != nil || failed {
			rn.emit(Event{Kind: RunEnd, Recap: rn.recap})
			return rn.recap, err
		}
	}
	rn.emit(Event{Kind: RunEnd, Recap: rn.recap})
	if rn.startAt.pending() {
		return rn.recap, &StartAtError{Pattern: r.StartAt}
	}
	return rn.recap, nil
}

// playbook runs pb's plays and reports whether the run stops after it: a
// host failed or was unreachable, in it or before.
func (rn *run) playbook(ctx context.Context, pb *playbooks.Playbook) (bool, error) {
	for _, p := range pb.Plays {
		res, err := rn.play(ctx, p)
		if err != nil {
			return true, err
		}
		if e := rn.stepErr.Load(); e != nil {
			return true, *e
		}
		if err = ctx.Err(); err != nil {
			return true, err
		}
		if rn.draining() {
			return true, ErrInterrupted
		}
		if res.stop {
			return true, nil
		}
	}
	return rn.recap.Failed() || rn.recap.Unreachable(), nil
}

// Handle watches a run started with Start.
type Handle struct {
	// Events delivers every event of the run; it is closed when the run
	// ends. Read it, or the run waits for you.
	Events <-chan Event
	done   chan struct{}
	recap  *Recap
	err    error
}

// Wait blocks until the run ends and returns what Run would have.
func (h *Handle) Wait() (*Recap, error) {
	<-h.done
	return h.recap, h.err
}

// Start runs pb in the background and returns at once. Runner.Events is
// not used: the handle's channel carries the events instead.
func (r *Runner) Start(ctx context.Context, pb *playbooks.Playbook) *Handle {
	ch := make(chan Event, 64)
	h := &Handle{Events: ch, done: make(chan struct{})}
	rr := *r
	rr.Events = func(e Event) { ch <- e }
	go func() {
		defer close(h.done)
		defer close(ch)
		h.recap, h.err = rr.Run(ctx, pb)
	}()
	return h
}

// run is the state of one Run.
type run struct {
	r  *Runner
	pb *playbooks.Playbook
	// plugins are pb's filters and tests that tender does not ship
	// (Runner.Plugins), nil for none.
	plugins expr.PluginSource
	mu      sync.Mutex // guards recap, hosts and event delivery
	recap   *Recap
	hosts   map[string]*hostRun
	// names are the host and group names that came marked.
	names markedNames
	// share lets the hosts' facts share equal values (factshare.go).
	share factShare
	// invMu serializes changes to the inventory (add_host, group_by) with
	// the reads that may run beside them.
	invMu sync.Mutex
	jobs  asyncJobs
	// implicit is Ansible's implicit localhost when the inventory does not
	// name localhost: hostvars shows it, as ansible-playbook's does.
	implicit *hostRun

	// connWarn is what the Dialer warned about, reported once per host.
	connWarn connWarnings

	localOnce sync.Once
	local     transport.Conn
	localErr  error

	warned map[string]bool // warnings given once per run; guarded by mu

	startAt startAt // --start-at-task, until a task matches
	// stepErr is Runner.Step's failure, which ends the run.
	stepErr atomic.Pointer[error]
	// cwd is the working directory when the run began, against which
	// relative directories are made absolute ("" when unknown).
	cwd string
}

// warnOnce emits the Warning e unless its message was given before in
// this run.
func (rn *run) warnOnce(e Event) {
	rn.mu.Lock()
	seen := rn.warned[e.Msg]
	if rn.warned == nil {
		rn.warned = map[string]bool{}
	}
	rn.warned[e.Msg] = true
	rn.mu.Unlock()
	if !seen {
		rn.emit(e)
	}
}

func (rn *run) emit(e Event) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	if e.Playbook == "" && rn.pb != nil && e.Kind != RunEnd {
		e.Playbook = rn.pb.Path
	}
	if rn.r.Events != nil {
		rn.r.Events(e)
	}
}

// host returns the run's state for an inventory host, made on first use.
func (rn *run) host(h *inventory.Host) (*hostRun, error) {
	rn.invMu.Lock()
	defer rn.invMu.Unlock()
	return rn.hostLocked(h)
}

// hostLocked is host for a caller that holds rn.invMu.
func (rn *run) hostLocked(h *inventory.Host) (*hostRun, error) {
	rn.mu.Lock()
	if hr, ok := rn.hosts[h.Name]; ok {
		rn.mu.Unlock()
		return hr, nil
	}
	hr, err := newHostRun(rn.r.Inventory, h, &rn.names, &rn.share, rn.r.HashMerge)
	if err != nil {
		rn.mu.Unlock()
		return nil, fmt.Errorf("host %s: %w", h.Name, err)
	}
	if err := rn.loadCachedFacts(hr); err != nil {
		// As Ansible: a cache entry that cannot be read (it was
		// removed) ends the run.
		rn.mu.Unlock()
		return nil, err
	}
	rn.hosts[h.Name] = hr
	rn.recap.stats(h.Name)
	rn.mu.Unlock()
	return hr, nil
}

// count adds one outcome to a host's recap; a failure or an unreachable
// host is no longer forgiven.
func (rn *run) count(host string, f func(*Stats)) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	s := rn.recap.stats(host)
	failed, unreachable := s.Failed, s.Unreachable
	f(s)
	if s.Failed != failed || s.Unreachable != unreachable {
		delete(rn.recap.Forgiven, host)
	}
}

// forgive records that clear_host_errors forgave the host's failures.
func (rn *run) forgive(host string) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.recap.Forgiven == nil {
		rn.recap.Forgiven = map[string]bool{}
	}
	rn.recap.Forgiven[host] = true
}

func (rn *run) closeAll() {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	for _, h := range rn.hosts {
		h.close()
	}
	if rn.local != nil {
		rn.local.Close()
	}
}

func (rn *run) forks() int {
	if rn.r.Forks > 0 {
		return rn.r.Forks
	}
	return DefaultForks
}
