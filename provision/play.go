package provision

import (
	"context"
	"errors"
	"fmt"

	"slices"

	"strings"
	"sync"
	"sync/atomic"

	"github.com/tender-sh/tender/internal/hostpattern"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
)

// playRun is the state of one play.
type playRun struct {
	rn        *run
	play      *playbooks.Play
	name      string
	varsFiles []map[string]any
	// varsFileSlots are the play's vars_files entries (loadVarsFiles),
	// varsFiles the layers of those read at its start; varsFileCache
	// holds each file read, by path.
	varsFileSlots []varsFileSlot
	varsFileCache sync.Map
	groups        atomic.Pointer[map[string]any] // the groups magic variable
	allNames      []any
	// playHosts are ansible_play_hosts and ansible_play_batch.
	playHosts playHosts
	handlers  *handlerList
	// roleVars are the role-name magic variables (roleNames), replaced
	// when include_role makes a role public.
	roleVars atomic.Pointer[map[string]any]
	// roles is what the batch's role uses ran (see roleuse.go).
	roles roleUses
	// abort ends the play for every host (any_errors_fatal, end_play);
	// endBatch ends the current serial batch (end_batch).
	abort, endBatch bool
	// fatal: abort came from an error that any_errors_fatal made fatal.
	fatal bool
	// runErr is an error that ends the run, as Ansible's strategy raises
	// it (a meta task's when: that does not evaluate); runErrMu guards it.
	runErrMu sync.Mutex
	runErr   error
	// noStep: the operator answered --step's question with continue;
	// stepMu guards it.
	stepMu sync.Mutex
	noStep bool
	// batchHosts are the hosts of the current serial batch, failed ones
	// included (clear_host_errors brings them back).
	batchHosts []*hostRun
	// hosts are the play's hosts, every batch's, in the play's order;
	// onceFacts, while a run_once task runs, collects the facts it gives.
	hosts     []*hostRun
	onceFacts *[]onceFact
	// done is the run's ctx.Done(): templates stop evaluating when it is
	// closed.
	done <-chan struct{}
	// public holds the public roles' variables; publicMu serializes
	// adding to them.
	public   atomic.Pointer[publicVars]
	publicMu sync.Mutex
	// included are the roles include_role made public, in order;
	// publicMu guards it.
	included []*playbooks.Role
	// slots are the run's forks under the free strategy, taken by a task
	// while it runs (takeSlot); nil under the others.
	slots chan struct{}
	// throttles bound the hosts running one task at once under the
	// free and host_pinned strategies (throttleTask); throttleMu
	// guards the map.
	throttleMu sync.Mutex
	throttles  map[*playbooks.Task]chan struct{}
}

// stopped reports whether the current batch runs no more tasks: the play
// was ended (end_play, any_errors_fatal) or the batch (end_batch).
func (pr *playRun) stopped() bool {
	return pr.abort || pr.endBatch || pr.rn.draining() || pr.failedRun() != nil
}

// endRun ends the run with err (the first one given stays).
func (pr *playRun) endRun(err error) {
	pr.runErrMu.Lock()
	defer pr.runErrMu.Unlock()
	if pr.runErr == nil {
		pr.runErr = &strategyError{err}
	}
}

// strategyError is an error Ansible's strategy raises in the middle of a
// play: ansible-playbook prints it and exits 1, with no recap.
type strategyError struct{ err error }

func (e *strategyError) Error() string { return e.err.Error() }

func (e *strategyError) Unwrap() error { return e.err }

// failedRun is the error that ends the run, nil while there is none.
func (pr *playRun) failedRun() error {
	pr.runErrMu.Lock()
	defer pr.runErrMu.Unlock()
	return pr.runErr
}

// playResult is what a play's end means for the playbook: stop, the
// playbook ends here, as ansible-playbook's does when every host of a
// batch failed, an error was fatal (any_errors_fatal) or
// max_fail_percentage was passed.
type playResult struct{ stop bool }

// play runs one play: its hosts in batches (serial), each batch through
// fact gathering, pre_tasks, roles and tasks, post_tasks, with handlers
// flushed after each section.
func (rn *run) play(ctx context.Context, p *playbooks.Play) (playResult, error) {
	var res playResult
	prompted, err := rn.withPrompted(ctx, p, rn.playVars(ctx.Done(), p.Vars, rn.r.ExtraVars))
	if err != nil {
		return res, fmt.Errorf("%s: %w", p.Pos, err)
	}
	p = prompted
	pr := &playRun{rn: rn, play: p, name: p.Name, handlers: newHandlerList(p), done: ctx.Done()}
	roleVars := pr.roleNames()
	pr.roleVars.Store(&roleVars)
	pr.public.Store((&publicVars{}).with(p.PublicRoles()...))
	pr.loadGroups()
	// As Ansible's: the play's vars_files are read before its keywords
	// are validated, which may use them.
	if pr.varsFileSlots, err = pr.loadVarsFiles(pr.playScope()); err != nil {
		return res, fmt.Errorf("%s: %w", p.Pos, err)
	}
	pr.varsFiles = loadedVarsFiles(pr.varsFileSlots)
	validated, pattern, err := playKeywords(p, pr.playScope())
	if err != nil {
		var pe *PlayError
		if errors.As(err, &pe) {
			return res, pe.at(p)
		}
		return res, fmt.Errorf("%s: %w", p.Pos, err)
	}
	if validated.Strategy == "" {
		validated.Strategy = rn.r.Defaults.Strategy
	}
	// An unknown strategy fails the play once it starts, after its banner.
	validated.Strategy, err = strategyName(validated.Strategy)
	strategyErr := err
	p = validated
	pr.play = p
	pr.warnReserved(p)
	hosts, all, err := pr.selectHosts(expr.Str(pattern))
	var subscript *hostpattern.SubscriptError
	if errors.As(err, &subscript) {
		// Ansible's AnsibleError from its inventory: no banner, no recap
		return res, (&PlayError{Err: err}).at(p)
	}
	if err != nil {
		return res, fmt.Errorf("%s: %w", p.Pos, err)
	}
	if hosts, err = orderHosts(hosts, p.Order); err != nil {
		return res, fmt.Errorf("%s: %w", p.Pos, err)
	}
	pr.hosts = hosts
	// ansible_play_hosts keeps the pattern's order whatever the play's
	// order: keyword, as Ansible's.
	active := map[string]bool{}
	for _, h := range hosts {
		active[h.name] = true
	}
	names := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return !active[n] })
	pr.allNames = rn.names.values(all)
	pr.playHosts.setAll(rn.names.values(names))
	if pr.name, err = pr.playName(); err != nil {
		return res, err
	}
	if len(hosts) == 0 {
		rn.emit(Event{Kind: PlayStart, Play: pr.name, Path: p.Pos.String(), CheckMode: pr.checkMarked(nil)})
		rn.emit(Event{Kind: NoHosts, Play: pr.name})
		return res, nil
	}
	if !rn.startAt.inPlay(p) {
		// --start-at-task: the task is in a later play.
		rn.emit(Event{Kind: PlayStart, Play: pr.name, Hosts: names, CheckMode: pr.checkMarked(nil)})
		return res, nil
	}
	batches, err := serialBatches(hosts, p.Serial)
	if err != nil {
		// Python's exception, which ansible-playbook reports with no recap
		return res, (&PlayError{Err: err}).at(p)
	}
	if strategyErr != nil {
		rn.emit(Event{Kind: PlayStart, Play: pr.name, Hosts: names, Path: p.Pos.String(), CheckMode: pr.checkMarked(nil)})
		return res, (&PlayError{Err: strategyErr}).at(p)
	}
	for _, batch := range batches {
		if err := pr.batch(ctx, batch); err != nil {
			return res, err
		}
		failed := 0
		for _, h := range batch {
			if h.failed || h.unreachable {
				failed++
			}
			h.ended = false
		}
		// max_fail_percentage is checked after each task (see
		// checkMaxFail), which sets fatal.
		if failed == len(batch) || pr.fatal {
			res.stop = true
			break
		}
		if pr.abort || pr.rn.draining() {
			break
		}
	}
	return res, nil
}

// selectHosts matches the play's pattern and --limit, keeping hosts that
// failed or were unreachable in an earlier play out, as Ansible does. all
// names every host matched, those too, in the inventory's order: the
// play's ansible_play_hosts_all.
func (pr *playRun) selectHosts(pattern string) (out []*hostRun, all []string, err error) {
	inv := pr.rn.r.Inventory
	// A play of all hosts limited to one host (agent deploy runs one per
	// host of a fleet) is that host, found without listing the fleet.
	if h := inv.Host(pr.rn.r.Limit); h != nil && strings.TrimSpace(pattern) == "all" {
		hr, err := pr.rn.host(h)
		if err != nil {
			return nil, nil, err
		}
		if !hr.active() {
			return nil, []string{hr.name}, nil
		}
		return []*hostRun{hr}, []string{hr.name}, nil
	}
	matched, err := inv.Match(strings.Split(pattern, ","))
	if isNoMatch(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if pr.rn.r.Limit != "" {
		if matched, err = inv.Limit(matched, pr.rn.r.Limit); isNoMatch(err) {
			return nil, nil, nil
		} else if err != nil {
			return nil, nil, err
		}
	}
	for _, h := range matched {
		hr, err := pr.rn.host(h)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, hr.name)
		if hr.active() {
			out = append(out, hr)
		}
	}
	return out, all, nil
}

func isNoMatch(err error) bool {
	var nm *inventory.NoMatchError
	return errors.As(err, &nm)
}

// batch runs the play on one serial batch of hosts.
func (pr *playRun) batch(ctx context.Context, hosts []*hostRun) error {
	names := make([]string, len(hosts))
	for i, h := range hosts {
		names[i] = h.name
	}
	pr.playHosts.setBatch(pr.rn.names.values(names))
	pr.batchHosts, pr.endBatch = hosts, false
	pr.rn.emit(Event{Kind: PlayStart, Play: pr.name, Hosts: names, Path: pr.play.Pos.String(), CheckMode: pr.checkMarked(nil)})
	pr.warnPlayHosts(hosts)
	pr.maxFailWarning()
	for _, h := range hosts {
		h.ended = false
	}
	if gather, smart := pr.gatherFacts(); gather {
		todo := hosts
		if smart {
			todo = nil
			for _, h := range hosts {
				if !h.gathered {
					todo = append(todo, h)
				}
			}
		}
		if len(todo) > 0 {
			pr.gather(ctx, todo)
		}
	}
	var main []*playbooks.Task
	pr.roles.reset()
	for _, r := range pr.play.Roles {
		main = append(main, pr.roles.use(r))
	}
	main = append(main, pr.play.Tasks...)
	for _, section := range [][]*playbooks.Task{pr.play.PreTasks, main, pr.play.PostTasks} {
		if pr.stopped() {
			// the run may have ended before a section began (a vars
			// file a host's scope could not read)
			return pr.failedRun()
		}
		pr.runSection(ctx, hosts, section)
		if err := pr.failedRun(); err != nil {
			return err
		}
		pr.flushHandlers(ctx, hosts)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// gatherFacts says whether the play gathers facts, and whether only on
// hosts this run has not gathered yet (DEFAULT_GATHERING=smart, for a
// play that does not set gather_facts).
func (pr *playRun) gatherFacts() (gather, smart bool) {
	g := pr.play.GatherFacts
	if !g.Set {
		switch pr.rn.r.Defaults.Gathering {
		case "explicit":
			return false, false
		case "smart":
			return true, true
		}
		return true, false
	}
	if g.Expr != "" {
		v, err := expr.Condition(g.Expr, pr.rn.playVars(pr.done, pr.play.Vars, pr.rn.r.ExtraVars))
		return err != nil || v, false
	}
	return g.Value, false
}

// serialBatches splits hosts as serial: says: a number, a percentage, or a
// list of them (the last repeating), Ansible's rolling batches.
func serialBatches(hosts []*hostRun, serial any) ([][]*hostRun, error) {
	if serial == nil {
		return [][]*hostRun{hosts}, nil
	}
	steps, ok := serial.([]any)
	if !ok {
		steps = []any{serial}
	}
	var sizes []int
	for _, s := range steps {
		n, err := batchSize(s, len(hosts))
		if err != nil {
			return nil, err
		}
		sizes = append(sizes, n)
	}
	var out [][]*hostRun
	for i := 0; len(hosts) > 0; i++ {
		n := sizes[min(i, len(sizes)-1)]
		if n <= 0 || n > len(hosts) {
			n = len(hosts)
		}
		out = append(out, hosts[:n])
		hosts = hosts[n:]
	}
	return out, nil
}

// batchSize is Ansible's pct_to_int of one entry of serial: a string
// ending in '%' is Python's int() of it without its '%' signs, as a
// percentage of the hosts (at least one), anything else Python's int()
// of it.
func batchSize(s any, total int) (int, error) {
	if str, ok := tasks.Text(s); ok && strings.HasSuffix(str, "%") {
		pct, err := expr.PyInt(strings.ReplaceAll(str, "%", ""))
		if err != nil {
			return 0, err
		}
		if n := int(float64(pct) / 100 * float64(total)); n != 0 {
			return n, nil
		}
		return 1, nil
	}
	return expr.PyInt(s)
}
