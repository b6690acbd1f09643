package expr

import (
	"fmt"
	"slices"
	"sort"
	"sync"
)

// Filter is a filter plugin: x is the value filtered ("x | name(a, k=v)"),
// args and kw its arguments; env is the evaluation's (its sandbox, its
// Done channel).
type Filter func(env *Env, x any, args []any, kw map[string]any) (any, error)

// Test is a test plugin: x is the value tested ("x is name(a)"), args and
// kw its arguments.
type Test func(x any, args []any, kw map[string]any) (bool, error)

// Lookup is a lookup plugin: terms and opts are lookup('name', *terms,
// **opts)'s (with_name's items as terms); what it returns is the list
// query() gives. The controller sandbox's lookups rule applies to it as
// to tender's own.
type Lookup func(env *Env, terms []any, opts map[string]any) ([]any, error)

// added are the plugins registered beside tender's own (AddFilter, AddTest,
// AddLookup).
var added struct {
	mu      sync.RWMutex
	filters map[string]Filter
	tests   map[string]Test
	lookups map[string]Lookup
}

// AddFilter registers a filter beside tender's own, under a short name
// that templates call it by (also as ansible.builtin.NAME or
// ansible.legacy.NAME). A program registers its plugins before it runs
// playbooks, as it registers its modules; a name tender's own plugins or
// an earlier registration took panics: a wiring mistake, not input.
func AddFilter(name string, f Filter) {
	if isFilter(name) {
		panic(fmt.Sprintf("expr: filter %q registered twice", name))
	}
	added.mu.Lock()
	defer added.mu.Unlock()
	if added.filters == nil {
		added.filters = map[string]Filter{}
	}
	added.filters[name] = f
}

// AddTest registers a test beside tender's own, as AddFilter does a filter.
func AddTest(name string, t Test) {
	if _, taken := testOf(name); taken {
		panic(fmt.Sprintf("expr: test %q registered twice", name))
	}
	added.mu.Lock()
	defer added.mu.Unlock()
	if added.tests == nil {
		added.tests = map[string]Test{}
	}
	added.tests[name] = t
}

// AddLookup registers a lookup plugin beside tender's own, as AddFilter
// does a filter: lookup('NAME', ...), query('NAME', ...) and with_NAME
// run it.
func AddLookup(name string, l Lookup) {
	if _, taken := lookupOf(name); taken {
		panic(fmt.Sprintf("expr: lookup %q registered twice", name))
	}
	added.mu.Lock()
	defer added.mu.Unlock()
	if added.lookups == nil {
		added.lookups = map[string]Lookup{}
	}
	added.lookups[name] = l
}

// filterOf returns the filter of a short name: tender's own, else one
// registered.
func filterOf(name string) (filterFunc, bool) {
	if f, ok := filters[name]; ok {
		return f, true
	}
	added.mu.RLock()
	defer added.mu.RUnlock()
	f, ok := added.filters[name]
	return filterFunc(f), ok
}

// testOf returns the test of a short name: tender's own, else one
// registered.
func testOf(name string) (testFunc, bool) {
	if t, ok := testTable()[name]; ok {
		return t, true
	}
	added.mu.RLock()
	defer added.mu.RUnlock()
	t, ok := added.tests[name]
	return testFunc(t), ok
}

// lookupOf returns the lookup of a short name: tender's own, else one
// registered.
func lookupOf(name string) (lookupFunc, bool) {
	if l, ok := lookupTable()[name]; ok {
		return l, true
	}
	added.mu.RLock()
	defer added.mu.RUnlock()
	l, ok := added.lookups[name]
	if !ok {
		return nil, false
	}
	return func(ev *evaluator, terms []any, opts map[string]any) ([]any, error) {
		return l(envOf(ev.scope), terms, opts)
	}, true
}

// IsLookup reports whether name (short) is a lookup plugin tender runs.
func IsLookup(name string) bool {
	_, ok := lookupOf(name)
	return ok
}

// Lookups lists the lookup plugins tender runs, sorted: its own and those
// registered (AddLookup), the names a controller sandbox may allow.
func Lookups() []string {
	own := lookupTable()
	added.mu.RLock()
	defer added.mu.RUnlock()
	return sortedNames(own, added.lookups)
}

// oldLoopLookups are community.general lookups that the with_ loops of
// old playbooks name (with_flattened, with_cartesian): a playbook naming
// them loads, and the loop fails when it runs, as tender does not have
// them.
var oldLoopLookups = []string{"cartesian", "flattened"}

// LoopLookups lists, sorted, the lookups a with_<lookup> loop may name
// when the playbook loads: those tender runs, those it refuses when run
// (with their reason), and old community ones.
func LoopLookups() []string {
	out := append(Lookups(), oldLoopLookups...)
	for _, p := range upstreamPlugins {
		if p.kind == "lookup" && p.refused != "" {
			out = append(out, p.name)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// IsLoopLookup reports whether with_<name> names a lookup (LoopLookups).
func IsLoopLookup(name string) bool {
	return IsLookup(name) || slices.Contains(oldLoopLookups, name) || refusedReason("lookup", name) != ""
}

// Filters lists the filters tender runs, sorted: its own (Jinja2's and
// Ansible's) and those registered (AddFilter).
func Filters() []string {
	added.mu.RLock()
	defer added.mu.RUnlock()
	return sortedNames(filters, added.filters)
}

// Tests lists the tests tender runs, sorted: its own and those registered
// (AddTest).
func Tests() []string {
	own := testTable()
	added.mu.RLock()
	defer added.mu.RUnlock()
	return sortedNames(own, added.tests)
}

// sortedNames lists the keys of own and more, sorted.
func sortedNames[A, B any](own map[string]A, more map[string]B) []string {
	out := make([]string, 0, len(own)+len(more))
	for n := range own {
		out = append(out, n)
	}
	for n := range more {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
