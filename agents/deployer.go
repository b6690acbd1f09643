package agents

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/vault"
)

// DefaultBatch is how many hosts a rollout deploys at a time when
// Options.Batch is zero (ZStack's default).
const DefaultBatch = 100

// DefaultLeaseTTL is how long a host's deploy lease lasts when
// Options.LeaseTTL is zero: longer than any sane playbook run.
const DefaultLeaseTTL = 30 * time.Minute

// Count is a number of hosts, or a percentage of them: "10" or "10%".
type Count struct {
	N       int
	Percent bool
}

// ParseCount reads "N" or "N%".
func ParseCount(s string) (Count, error) {
	t := strings.TrimSuffix(strings.TrimSpace(s), "%")
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 || (t != strings.TrimSpace(s) && n > 100) {
		return Count{}, fmt.Errorf("%q: want a number of hosts or a percentage (10 or 10%%)", s)
	}
	return Count{N: n, Percent: t != strings.TrimSpace(s)}, nil
}

// Of resolves the count against total hosts; a percentage rounds up, so
// 10% of 5 hosts is 1.
func (c Count) Of(total int) int {
	if !c.Percent {
		return c.N
	}
	return (c.N*total + 99) / 100
}

// String prints the count as ParseCount reads it.
func (c Count) String() string {
	if c.Percent {
		return strconv.Itoa(c.N) + "%"
	}
	return strconv.Itoa(c.N)
}

// Options are a Deployer's settings and injected dependencies.
type Options struct {
	// Modules are the modules the bundle's playbook may use. Nil means
	// the registry the bundle was loaded with (LoadOptions.Modules), so
	// the allow-list is given once; another registry must allow every
	// module the bundle's playbook names, or New refuses it.
	Modules *tasks.Registry
	// NeedRun, when set, is asked about each host the ledger and the
	// probe find up to date (its files' MD5s and the agent's port or
	// health check agree), as ZStack's need-run checkers were: need true
	// deploys the host anyway (action repair, status "needs run", the
	// reason given). An error deploys it too, the error as the reason:
	// a check that cannot tell does not keep a host as it is. Calls run
	// at once, up to Forks.
	NeedRun func(ctx context.Context, host string) (need bool, reason string, err error)
	// Connections reach the hosts, by their connection type (as
	// provision.Runner.Connections): only the types the hosts use need
	// be there. Nil means DefaultConnections().
	Connections *transport.Connections
	// Sandbox bounds what the bundle's playbook may do on the controller
	// (provision.Runner.Sandbox), the probe's run included; load the
	// bundle with the same policy (LoadOptions.Sandbox). Nil allows
	// everything.
	Sandbox *sandbox.Policy
	// Hosts is the inventory pattern of the hosts to manage ("" is all);
	// Limit restricts it further (--limit).
	Hosts, Limit string
	// Batch bounds how many hosts are deployed in one wave (0: DefaultBatch).
	Batch Count
	// Forks bounds how many hosts work at once, probing or deploying
	// (0: the batch size).
	Forks int
	// MaxFail stops scheduling hosts once more hosts than this failed
	// (nil: never stop).
	MaxFail *Count
	// Canary, when above 0, is the size of a first wave deployed on its
	// own: a failure in it stops the rollout.
	Canary int
	// StopOnFailedBatch stops scheduling waves after the first in which a
	// host failed (an upgrader's default; MaxFail allows more).
	StopOnFailedBatch bool
	// Pause is how long to wait between waves (0: none); ctx ending cuts
	// it short.
	Pause time.Duration
	// Force redeploys every host, whatever the ledger says.
	Force bool
	// ExtraVars are the operator's vars (-e) for the playbook.
	ExtraVars map[string]any
	// Vault holds the vault secrets the bundle's playbook decrypts its
	// vaulted files and !vault values with (provision.Runner.Decrypt);
	// nil means the keyring the bundle was loaded with
	// (LoadOptions.Vault). Every plaintext its Censor knows (whatever
	// the keyring opened: the inventory's vaulted group_vars and host
	// vars, !vault values, -e @FILE, the bundle's vars, what the
	// playbook decrypts) is blanked in events and in the ledger, so
	// give it a Censor before the inventory is loaded.
	Vault *vault.Keyring
	// RestartWait bounds how long Restart waits for the restarted agent
	// to answer (0: DefaultRestartWait).
	RestartWait time.Duration
	// LeaseTTL is how long a host's lease lasts (0: DefaultLeaseTTL).
	LeaseTTL time.Duration
	// Owner names this process in leases and rollouts (""; Owner()).
	Owner string
	// Events receives progress, one event at a time, in order. Nil
	// discards.
	Events func(Event)
}

// Deployer deploys one bundle to a set of hosts, only where needed. Make
// one with New. Its methods are safe for concurrent use; hosts may be
// added while a rollout runs (they join the next one).
type Deployer struct {
	store  Store
	bundle *Bundle
	inv    *inventory.Inventory
	opts   Options

	mu    sync.Mutex
	added []target // hosts added at run time, in order
	emitM sync.Mutex
}

// target is one host and the inventory that holds it (never modified once
// a run may read it).
type target struct {
	name string
	inv  *inventory.Inventory
	keys []transport.Key // held in memory (AddTarget)
}

// runKeys is the keys for a Runner of t alone (provision.Runner.Keys).
func (t target) runKeys() map[string][]transport.Key {
	if len(t.keys) == 0 {
		return nil
	}
	return map[string][]transport.Key{t.name: t.keys}
}

// New makes a Deployer of bundle b with the ledger st, for the hosts of
// inv (which may be nil when every host is added with AddHost).
func New(st Store, b *Bundle, inv *inventory.Inventory, opts Options) (*Deployer, error) {
	switch {
	case st == nil:
		return nil, errors.New("agents: a Deployer needs a Store")
	case b == nil:
		return nil, errors.New("agents: a Deployer needs a Bundle")
	}
	if opts.Connections == nil {
		opts.Connections = DefaultConnections()
	}
	if opts.Modules == nil {
		opts.Modules = b.modules
	}
	if opts.Vault == nil {
		opts.Vault = b.vault
	}
	if err := checkModules(b, opts.Modules); err != nil {
		return nil, err
	}
	if err := opts.Sandbox.Validate(); err != nil {
		return nil, err
	}
	if opts.Owner == "" {
		opts.Owner = Owner()
	}
	if opts.LeaseTTL == 0 {
		opts.LeaseTTL = DefaultLeaseTTL
	}
	return &Deployer{store: st, bundle: b, inv: inv, opts: opts}, nil
}

// Bundle is the bundle the Deployer deploys.
func (d *Deployer) Bundle() *Bundle { return d.bundle }

// AddHost adds a host that is not in the inventory, with its connection
// variables (ansible_host, ansible_port, ansible_user, ...), as a control
// plane does when it adopts a new machine. A name already known is an
// error.
func (d *Deployer) AddHost(name string, vars map[string]any) error {
	return d.addHost(name, vars, nil)
}

// AddTarget adds a host that is not in the inventory, as AddHost does,
// from a typed target: its fields become Ansible's variables
// (provision.Target.HostVars, which refuses an ansible_* name tender does
// not know), and its private key, if held in memory, goes to its
// connections only, never to a variable, an event or the ledger.
func (d *Deployer) AddTarget(t provision.Target) error {
	vars, err := t.HostVars(d.opts.Connections)
	if err != nil {
		return err
	}
	var keys []transport.Key
	if t.HasKey() {
		keys = []transport.Key{t.Key}
	}
	return d.addHost(t.Name, vars, keys)
}

func (d *Deployer) addHost(name string, vars map[string]any, keys []transport.Key) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, t := range d.added {
		if t.name == name {
			return fmt.Errorf("host %s was already added", name)
		}
	}
	if d.inv != nil && d.inv.Host(name) != nil {
		return fmt.Errorf("host %s is already in the inventory", name)
	}
	inv := inventory.New()
	h, err := inv.AddHost(name)
	if err != nil {
		return err
	}
	for k, v := range maps.Clone(vars) {
		h.SetVar(k, v)
	}
	d.added = append(d.added, target{name: name, inv: inv, keys: keys})
	return nil
}

// targets lists the hosts to manage: the inventory's (pattern, limit),
// then the added ones that pass the limit's plain names.
func (d *Deployer) targets() ([]target, error) {
	var out []target
	if d.inv != nil {
		pattern := d.opts.Hosts
		if pattern == "" {
			pattern = "all"
		}
		hosts, err := d.inv.Hosts(pattern)
		var nm *inventory.NoMatchError
		if err != nil && !errors.As(err, &nm) {
			return nil, err
		}
		if d.opts.Limit != "" && len(hosts) > 0 {
			if hosts, err = d.inv.Limit(hosts, d.opts.Limit); err != nil && !errors.As(err, &nm) {
				return nil, err
			}
		}
		for _, h := range hosts {
			out = append(out, target{name: h.Name, inv: d.inv})
		}
	}
	d.mu.Lock()
	added := append([]target(nil), d.added...)
	d.mu.Unlock()
	for _, t := range added {
		if d.opts.Limit == "" {
			out = append(out, t)
			continue
		}
		if hs, err := t.inv.Limit([]*inventory.Host{t.inv.Host(t.name)}, d.opts.Limit); err == nil && len(hs) == 1 {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no hosts to deploy to")
	}
	return out, nil
}

// target finds one managed host by name, ignoring the limit.
func (d *Deployer) target(name string) (target, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, t := range d.added {
		if t.name == name {
			return t, nil
		}
	}
	if d.inv != nil && d.inv.Host(name) != nil {
		return target{name: name, inv: d.inv}, nil
	}
	return target{}, fmt.Errorf("no host %s in the inventory or among the added hosts", name)
}

func (d *Deployer) emit(e Event) {
	if d.opts.Events == nil {
		return
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	d.emitM.Lock()
	defer d.emitM.Unlock()
	d.opts.Events(e)
}

func (d *Deployer) forks(batch int) int {
	if d.opts.Forks > 0 {
		return d.opts.Forks
	}
	if batch > 0 {
		return batch
	}
	return DefaultBatch
}

// checkModules refuses a registry that lacks modules the bundle's
// playbook names, before any host is touched: otherwise a deploy would
// fail at that task, after the tasks before it had run.
func checkModules(b *Bundle, reg *tasks.Registry) error {
	if reg == nil {
		return errors.New("agents: a Deployer needs Options.Modules, or a Bundle from LoadBundle")
	}
	if b.Playbook == nil || reg == b.modules {
		return nil
	}
	var missing []string
	for _, m := range b.Playbook.Modules() {
		if _, ok := reg.Def(m); !ok {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("agents: bundle %s: its playbook uses modules that Options.Modules does not allow: %s", b.Name, strings.Join(missing, ", "))
	}
	return nil
}
