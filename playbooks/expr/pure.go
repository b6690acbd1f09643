package expr

import (
	"errors"
	"sync/atomic"
)

// ErrImpure is the error of an evaluation under Env.Pure that reached for
// something whose value could differ when evaluated again later, or
// whose evaluation does something: a lookup, now(), a random filter, a
// Python plugin, or a variable Pure names.
var ErrImpure = errors.New("the template is not pure")

// Pure asks an Env to refuse (with ErrImpure) what is not a function of
// the variables alone: the engine evaluates a task ahead of its turn
// only when a later evaluation must give the same result.
type Pure struct {
	// Volatile are variables whose value may change before the task's
	// turn (ansible_play_hosts, …): reading one is impure, as is reading
	// a template file's template_run_date (the clock).
	Volatile map[string]bool

	hit atomic.Bool
}

// Hit reports whether an evaluation refused something as impure, even
// one whose error a template caught (errors='ignore', a default): only
// then is what was evaluated sure to be what a later evaluation gives.
func (p *Pure) Hit() bool { return p.hit.Load() }

// impureFilters give another value on each call (random, shuffle), or
// one drawn from the clock or a random salt.
var impureFilters = map[string]bool{"random": true, "shuffle": true, "password_hash": true, "strftime": true}

// impureGlobals are the global functions that do the same.
var impureGlobals = map[string]bool{"lookup": true, "query": true, "q": true, "now": true, "lipsum": true}

// checkPure is nil unless env is pure and what names is impure there.
func (env *Env) checkPure(kind, name string) error {
	if env == nil || env.Pure == nil {
		return nil
	}
	if err := env.Pure.check(kind, name); err != nil {
		env.Pure.hit.Store(true)
		return err
	}
	return nil
}

func (p *Pure) check(kind, name string) error {
	switch kind {
	case "filter":
		if impureFilters[name] {
			return ErrImpure
		}
	case "global":
		if impureGlobals[name] {
			return ErrImpure
		}
	case "var":
		if p.Volatile[name] || name == "template_run_date" {
			return ErrImpure
		}
	default: // a Python plugin's
		return ErrImpure
	}
	return nil
}
