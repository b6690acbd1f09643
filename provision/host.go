package provision

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision/facts"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/transport"
)

// hostRun is one host's state for a whole run. Its tasks run one at a
// time (the engine never runs two tasks of one host at once), so its
// fields need no lock; other hosts read it only through snapshot.
type hostRun struct {
	name  string
	names *markedNames // the run's marked names
	share *factShare   // the run's shared fact values and names
	inv   *inventory.Host
	merge bool // hash_behaviour=merge (Runner.HashMerge)
	// mu guards invVars and groupNames, which add_host and group_by
	// change while other hosts may read them.
	mu         sync.Mutex
	invVars    map[string]any // inventory vars
	groupNames []any          // the host's groups but all, sorted
	facts      map[string]any // gathered facts (ansible_facts)
	gathered   bool           // facts were gathered this run (DEFAULT_GATHERING=smart)
	setFacts   map[string]any // set_fact and registered results
	// includedVars are the variables include_vars loaded: below set_fact
	// and register results whatever the order, as in Ansible.
	includedVars map[string]any
	// moduleFacts are the facts set_fact (and any module returning
	// ansible_facts) set: ansible_facts shows them, registered results not.
	moduleFacts map[string]any
	// cachedFacts are the facts of an earlier run's modules the fact
	// cache held (Runner.FactCache), but setup's, which are in facts.
	cachedFacts map[string]any
	notified    map[*playbooks.Task]bool
	// incVars are the loop variables of the includes the host is inside,
	// innermost last.
	incVars []map[string]any
	// loopFacts, while a loop runs on the host, holds the facts its items
	// returned, applied when the loop ends (see loop).
	loopFacts *[]loopFact

	// failed: a task failed (and was not rescued); the host does nothing
	// more in this run. unreachable: its connection failed.
	failed      bool
	unreachable bool
	// ended: meta end_host ended the current play for this host.
	ended bool
	// clears counts the meta clear_host_errors run in the host's play: a
	// failure an always section is running for stands only if none ran
	// meanwhile.
	clears int

	// conns are the host's connections, one per distinct login (the
	// same for a whole run unless a play or task sets remote_user, port
	// or connection), each opened the first time it is needed.
	connMu sync.Mutex
	conns  map[string]*connSlot

	// ahead is what the host's tasks sent ahead of their turn (ahead.go).
	ahead aheadState

	// snap is what hostvars[name] shows other hosts: an immutable map,
	// replaced whenever facts or set_facts change.
	snap atomic.Pointer[map[string]any]
	// factLayer is factVars of the host's facts as refresh last made it:
	// every task's scope shares it (a scope used to build its own, and
	// the tasks in flight ahead of their turn each held a copy). Every
	// change to facts, cachedFacts or moduleFacts is followed by
	// refreshFacts.
	factLayer atomic.Pointer[map[string]any]
	// factsStale: facts, cachedFacts or moduleFacts changed since
	// factLayer was made (refreshFacts); a refresh for other variables
	// (a register, set_fact, add_host) keeps the layer.
	factsStale bool
}

func newHostRun(inv *inventory.Inventory, h *inventory.Host, names *markedNames, share *factShare, merge bool) (*hostRun, error) {
	hostRunsMade.Add(1)
	vars, err := inv.HostVars(h.Name)
	if err != nil {
		return nil, err
	}
	vars = withSourceVars(h, vars)
	hr := &hostRun{name: h.Name, names: names, share: share, merge: merge, inv: h, invVars: vars, groupNames: names.values(h.GroupNames()), facts: map[string]any{},
		setFacts: map[string]any{}, includedVars: map[string]any{}, moduleFacts: map[string]any{}, notified: map[*playbooks.Task]bool{}}
	hr.refresh()
	return hr, nil
}

// hostRunsMade counts newHostRun's calls, for the test that a play makes
// only the hosts it runs on or reads (TestPlayMakesOnlyItsHosts).
var hostRunsMade atomic.Int64

// active reports whether the host still takes part in the run.
func (h *hostRun) active() bool { return !h.failed && !h.unreachable && !h.ended }

// refresh rebuilds the hostvars snapshot after the host's variables
// changed, and the facts' layer of its scope (factLayer) when the facts
// did (refreshFacts) or it has none yet.
func (h *hostRun) refresh() {
	inv, groups := h.inventory()
	m := make(map[string]any, len(inv)+len(h.facts)+len(h.setFacts)+4)
	for k, v := range inv {
		m[k] = v
	}
	var fv map[string]any
	if p := h.factLayer.Load(); p != nil && !h.factsStale {
		fv = *p
	} else {
		fv = factVars(h.facts, h.cachedFacts, h.moduleFacts, h.share)
		h.factLayer.Store(&fv)
		h.factsStale = false
	}
	for _, l := range []map[string]any{fv, h.includedVars, h.setFacts} {
		for k, v := range l {
			if old, ok := m[k].(map[string]any); ok && h.merge {
				if nv, ok := v.(map[string]any); ok {
					v = pydict.MergeHash(old, nv)
				}
			}
			m[k] = v
		}
	}
	m["inventory_hostname"] = h.names.value(h.name)
	m["inventory_hostname_short"] = h.names.short(h.name)
	m["group_names"] = groups
	h.snap.Store(&m)
}

// refreshFacts is refresh after facts, cachedFacts or moduleFacts
// changed: the facts' layer is made again too.
func (h *hostRun) refreshFacts() {
	h.factsStale = true
	h.refresh()
}

// inventory returns the host's inventory vars and group names.
func (h *hostRun) inventory() (map[string]any, []any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.invVars, h.groupNames
}

// setInventory replaces the host's inventory vars and group names after
// add_host or group_by changed them.
func (h *hostRun) setInventory(vars map[string]any, groups []string) {
	h.mu.Lock()
	h.invVars, h.groupNames = vars, h.names.values(groups)
	h.mu.Unlock()
	h.refresh()
}

// setFact records a set_fact or register result and refreshes the
// snapshot. The variables keep the order they were first set in, as in
// Ansible (the varnames lookup lists them so).
func (h *hostRun) setFact(name string, v any) {
	pydict.Set(h.setFacts, name, v)
	h.refresh()
}

// factVars returns the host's facts as variables (the function
// factVars), as refresh last made them.
func (h *hostRun) factVars() map[string]any {
	if fv := h.factLayer.Load(); fv != nil {
		return *fv
	}
	return factVars(h.facts, h.cachedFacts, h.moduleFacts, h.share)
}

// factVars turns facts into variables as Ansible injects them: the map as
// ansible_facts and each gathered fact again as ansible_<name>. cached
// (facts of an earlier run's modules, from the fact cache) are variables
// under their own names and join ansible_facts; set (this run's modules'
// and cacheable set_fact's facts) joins ansible_facts under its own
// names. A host without facts has an empty ansible_facts, as in Ansible.
func factVars(gathered, cached, set map[string]any, share *factShare) map[string]any {
	out := make(map[string]any, len(gathered)+len(cached)+1)
	all := make(map[string]any, len(gathered)+len(set))
	for k, v := range gathered {
		switch {
		case k == factsGathered:
			// Only in ansible_facts, as Ansible keeps it.
		case facts.Unprefixed(k):
			out[k] = v
		default:
			out[share.factName(k)] = v
		}
		if k == "local" {
			// Ansible's ansible_facts keeps ansible_local's prefix.
			k = "ansible_local"
		}
		all[k] = v
	}
	for k, v := range cached {
		out[k], all[k] = v, v
	}
	for k, v := range set {
		all[k] = v
	}
	out["ansible_facts"] = all
	return out
}

// connSlot is one connection of a host, opened once.
type connSlot struct {
	once sync.Once
	conn transport.Conn
	err  error
}

// connect returns the host's connection for the login its variables (and
// the keywords under them) describe, opening it the first time it is
// needed: one connection per host for the whole run, unless keywords ask
// for another login. The connection variables are read from the host's
// scope, so they may be templates.
func (h *hostRun) connect(ctx context.Context, rn *run, scope expr.Scope, kw ConnKeywords) (transport.Conn, error) {
	r := rn.r
	c, err := ResolveConnection(r.Connections, r.config(), h.name, scope.Lookup, kw)
	if err != nil {
		return nil, err
	}
	c.Target.Keys = r.Keys[h.name]
	kind, t := c.Type, r.vetted(c.Target)
	if transport.RunsOnController(c.Dialer) {
		if err := r.Sandbox.CheckLocal("host " + h.name + " with connection " + kind); err != nil {
			return nil, err
		}
	}
	key := targetKey(kind, t)
	h.connMu.Lock()
	if h.conns == nil {
		h.conns = map[string]*connSlot{}
	}
	slot := h.conns[key]
	if slot == nil {
		slot = &connSlot{}
		h.conns[key] = slot
	}
	h.connMu.Unlock()
	slot.once.Do(func() {
		rn.warnTargets("", []hostTarget{{host: h.name, key: key, t: t, d: c.Dialer}})
		rn.emit(Event{Kind: Connecting, Host: h.name, Msg: establish(kind, c.Dialer, t)})
		slot.conn, slot.err = c.Dialer.Connect(ctx, t)
		// A file the sandbox refused fails the host's task: the host
		// is not unreachable.
		denied := (*sandbox.DeniedError)(nil)
		if slot.err != nil && !errors.Is(slot.err, transport.ErrUnreachable) && !errors.As(slot.err, &denied) {
			slot.err = transport.Unreachable(h.name, slot.err)
		}
	})
	return slot.conn, slot.err
}

// targetKey tells apart the logins a host's connections are for.
func targetKey(kind string, t transport.Target) string {
	keys := make([]string, len(t.Keys))
	for i, k := range t.Keys {
		keys[i] = k.ID()
	}
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%s\x00%s\x00%x\x00%v", kind, t.Host, t.User, t.Port, strings.Join(keys, "\x00"), strings.Join(t.KeyFiles, "\x00"), sha256.Sum256([]byte(t.Password)), t.Options)
}

// close closes the host's connections; the next task that needs one
// opens it again.
func (h *hostRun) close() {
	h.connMu.Lock()
	defer h.connMu.Unlock()
	for _, s := range h.conns {
		if s.conn != nil {
			s.conn.Close()
		}
	}
	h.conns = nil
}

// establish says what a connection opens, as Ansible's -vvv output does:
// the Dialer's own line (transport.Announcer), else "ESTABLISH TYPE
// CONNECTION FOR USER: user" ("?" when the user is left to the type).
func establish(kind string, d transport.Dialer, t transport.Target) string {
	if a, ok := d.(transport.Announcer); ok {
		return a.Establish(t)
	}
	user := t.User
	if user == "" {
		user = "?"
	}
	return "ESTABLISH " + strings.ToUpper(kind) + " CONNECTION FOR USER: " + user
}
