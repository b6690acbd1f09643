package provision

import (
	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks/expr"
)

// hostvarsScope is the hostvars magic variable: a dict of every inventory
// host (and the implicit localhost) whose entries are made when a
// template reads them. Each entry is that host's latest snapshot as a
// scope of its own, so a templated variable of another host renders with
// that host's values, as in Ansible. Being lazy, a task's scope costs the
// same on a host of a fleet of 10,000 as on one of ten.
type hostvarsScope struct{ pr *playRun }

// Lookup implements expr.Scope: one host's variables.
func (s hostvarsScope) Lookup(name string) (any, bool, error) {
	hr, err := s.pr.rn.knownHost(name)
	if err != nil || hr == nil {
		return nil, false, err
	}
	hv := expr.NewVars(*hr.snap.Load())
	hv.Env = s.pr.lookupEnv(nil, nil, hv)
	hv.KeepUndefined = true // as Ansible's hostvars
	return hv, true, nil
}

// Keys implements expr.Keyed: the inventory's hosts in its order, then
// the implicit localhost.
func (s hostvarsScope) Keys() []string {
	rn := s.pr.rn
	rn.invMu.Lock()
	all, _ := rn.r.Inventory.Hosts("all")
	rn.invMu.Unlock()
	out := make([]string, 0, len(all)+1)
	for _, h := range all {
		out = append(out, h.Name)
	}
	rn.mu.Lock()
	im := rn.implicitLocal()
	rn.mu.Unlock()
	if im != nil {
		out = append(out, im.name)
	}
	return out
}

// knownHost returns the run's state of the named inventory host (made on
// first use), the implicit localhost for "localhost" when the inventory
// does not name it, or nil for a host nobody knows.
func (rn *run) knownHost(name string) (*hostRun, error) {
	rn.mu.Lock()
	hr := rn.hosts[name]
	rn.mu.Unlock()
	if hr != nil {
		return hr, nil
	}
	rn.invMu.Lock()
	var h *inventory.Host
	if rn.r.Inventory != nil {
		h = rn.r.Inventory.Host(name)
	}
	if h != nil {
		defer rn.invMu.Unlock()
		return rn.hostLocked(h)
	}
	rn.invMu.Unlock()
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if im := rn.implicitLocal(); im != nil && im.name == name {
		return im, nil
	}
	return nil, nil
}

// delegatedScope is scope with ansible_delegated_vars for a delegated
// task, as Ansible defines it: a dict from the delegate's name (every
// loop item's) to its variables (empty for a host the inventory does
// not have).
func (pr *playRun) delegatedScope(scope *expr.Vars, kw keywords) *expr.Vars {
	if kw.delegateTo == "" {
		return scope
	}
	names := kw.delegates
	if len(names) == 0 {
		names = []string{kw.delegateTo}
	}
	b := pydict.NewBuilder(len(names))
	for _, n := range names {
		var vars any = map[string]any{}
		if v, ok, err := (hostvarsScope{pr}).Lookup(n); err == nil && ok {
			vars = v
		}
		b.Set(n, vars)
	}
	return scope.With(map[string]any{"ansible_delegated_vars": b.Map()})
}
