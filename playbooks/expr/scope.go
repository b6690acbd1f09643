package expr

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tender-sh/tender/internal/pydict"
)

// Scope resolves variable names for the evaluator.
type Scope interface {
	// Lookup returns the value of name and whether it is defined. An error
	// means the value exists but could not be produced (a reference cycle,
	// an undefined variable inside a lazily rendered value).
	Lookup(name string) (v any, ok bool, err error)
}

// EnvScope is a Scope that also carries the Env lookups need. Scopes that
// do not implement it get a zero Env (no search paths, `lines` disabled).
type EnvScope interface {
	Scope
	LookupEnv() *Env
}

// Env is what lookups need from the controller.
type Env struct {
	// SearchPaths are the directories (role path, playbook directory, …)
	// where file, first_found, fileglob and ini look for a relative name:
	// in DIR/files/NAME, then DIR/NAME, as Ansible does; the template
	// lookup and {% include %} in template files look in
	// DIR/templates/NAME, then DIR/NAME.
	SearchPaths []string
	// BaseDir is the playbook directory: relative password files are
	// resolved against it and `lines` commands run in it. Empty means the
	// current directory.
	BaseDir string
	// AllowCommands enables the `lines` lookup, which runs a shell command
	// on the controller.
	AllowCommands bool
	// NoWrite keeps the password lookup from creating or updating its file
	// (check mode, fuzzing): a missing password is generated but not stored.
	NoWrite bool
	// Getenv reads the controller's environment for the env lookup and
	// the expandvars and expanduser filters; nil means os.LookupEnv.
	// The Sandbox is asked first (CheckEnv).
	Getenv func(name string) (string, bool)
	// Sandbox, when set, is asked before a lookup runs and before the
	// controller's files are read or written (see Sandbox); nil allows
	// everything.
	Sandbox Sandbox
	// Done, when closed, stops every evaluation in this Env at its next
	// step with ErrInterrupted (a run being cancelled: Ctrl-C).
	Done <-chan struct{}
	// Plugins, when set, supplies the filters and tests tender does not
	// ship (PluginSource): the content's Python plugins.
	Plugins PluginSource
	// Native is Ansible's jinja2_native setting (DEFAULT_JINJA2_NATIVE):
	// a playbook template's output becomes a value as the native concat
	// makes it (native.go); template files are not affected.
	Native bool
	// Config answers the config lookup: Ansible's settings and the
	// options of its plugins. Nil refuses the lookup.
	Config ConfigSource
	// Warn receives what lookups warn about ([WARNING] lines in
	// ansible-playbook's output); nil drops it.
	Warn func(msg string)
	// Vault decrypts vault-encrypted files for the unvault and file
	// lookups with the run's secrets, and does the vault and unvault
	// filters' cryptography. Nil refuses those filters and vaulted files.
	Vault Vault
	// Limits bound the memory and the time of each evaluation in this
	// Env (see Limits); the zero value means the defaults.
	Limits Limits
	// Pure, when set, makes the evaluation refuse what is not a function
	// of the variables alone (see Pure).
	Pure *Pure

	// budget is set on the copy of the Env that the filters and lookups
	// of one evaluation get (evaluator.env): what it has spent.
	budget *budget
}

// Vars is a Scope over layered maps: a name is looked up from the last
// layer to the first. A value containing templates is rendered when it is
// read, in the same scope (lazily, as Ansible does), recursively through
// lists and dicts; a chain of references that comes back to a name being
// resolved is a *CycleError. Vars is safe for concurrent reads as long as
// nobody mutates the layers.
type Vars struct {
	Layers []map[string]any
	Env    *Env
	// KeepUndefined keeps a template string of a value as it is when it
	// uses a variable that is not defined, instead of failing: what
	// Ansible's hostvars[host][name] does (it renders with
	// fail_on_undefined off). Variables the value refers to fail as usual.
	KeepUndefined bool
	// Merge is Ansible's hash_behaviour=merge: a dict defined in several
	// layers is the lower layers' dicts merged recursively with the
	// higher ones' (pydict.MergeHash), down to the first layer where the
	// name is not a dict; without it the highest layer's value wins.
	Merge bool
}

// NewVars returns Vars over the given layers, lowest precedence first.
func NewVars(layers ...map[string]any) *Vars { return &Vars{Layers: layers} }

// With returns a Vars sharing v's layers, Env and KeepUndefined with m on
// top (for a loop item, task vars, …). v is not changed.
func (v *Vars) With(m map[string]any) *Vars {
	return &Vars{Layers: append(slices.Clip(v.Layers), m), Env: v.Env, KeepUndefined: v.KeepUndefined, Merge: v.Merge}
}

// Lookup implements Scope.
func (v *Vars) Lookup(name string) (any, bool, error) {
	x, ok, err := v.lookup(name, nil, nil)
	return plain(x), ok, err
}

func (v *Vars) lookupNative(name string, b *budget) (any, bool, error) {
	return v.lookup(name, nil, b)
}
func (v *Vars) rawLookup(name string) (any, bool) { return v.raw(name) }

// LookupEnv implements EnvScope.
func (v *Vars) LookupEnv() *Env { return v.Env }

// Keys implements Keyed: every name defined in any layer, in the order
// Ansible's merged variables have (the lowest layer's names first, each
// layer's in its order).
func (v *Vars) Keys() []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range v.Layers {
		for _, k := range pydict.Keys(l) {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

func (v *Vars) raw(name string) (any, bool) {
	for i := len(v.Layers) - 1; i >= 0; i-- {
		if x, ok := v.Layers[i][name]; ok {
			if m, isMap := x.(map[string]any); isMap && v.Merge {
				return v.merged(name, i, m), true
			}
			return x, true
		}
	}
	return nil, false
}

// merged is name's dict m, found in layer top, merged over the dicts the
// layers below give it, down to one where it is not a dict (Merge).
func (v *Vars) merged(name string, top int, m map[string]any) map[string]any {
	stack := []map[string]any{m}
	for i := top - 1; i >= 0; i-- {
		x, ok := v.Layers[i][name]
		if !ok {
			continue
		}
		xm, isMap := x.(map[string]any)
		if !isMap {
			break
		}
		stack = append(stack, xm)
	}
	out := stack[len(stack)-1]
	for j := len(stack) - 2; j >= 0; j-- {
		out = pydict.MergeHash(out, stack[j])
	}
	return out
}

// lookup returns name's value, rendered if it holds templates (chain: the
// names being resolved; b: the budget the rendering shares, if any).
func (v *Vars) lookup(name string, chain []string, b *budget) (any, bool, error) {
	if err := v.Env.checkPure("var", name); err != nil {
		return nil, true, err
	}
	x, ok := v.raw(name)
	if !ok {
		return nil, false, nil
	}
	if !hasTemplate(x) {
		return x, true, nil
	}
	if slices.Contains(chain, name) {
		return nil, true, &CycleError{Chain: append(slices.Clone(chain), name)}
	}
	r := &resolving{v: v, chain: append(slices.Clip(chain), name), b: b}
	render := renderDeep
	if v.KeepUndefined && len(chain) == 0 {
		render = renderDeepKeepUndefined
	}
	out, err := render(x, r)
	if err != nil {
		var ue *UndefinedError
		var ce *CycleError
		switch {
		case errors.As(err, &ce):
		case errors.As(err, &ue):
			// Ansible's message: the variable's value, then the error
			// with its cause ("{{ a.b }}: 'dict object' has no
			// attribute 'b'. 'dict object' has no attribute 'b'").
			msg := fmt.Sprintf("%s: %s. %s", Str(x), ue.Msg, ue.Msg)
			err = &UndefinedError{Name: ue.Name, Msg: msg, hint: msg}
		default:
			err = &varValueError{name: name, value: Str(x), err: err}
		}
	}
	return out, true, err
}

// resolving is the scope a lazily rendered variable is rendered in: it
// remembers which names are being resolved, to detect cycles, and the
// budget of the evaluation that reads the variable, if any, which the
// rendering shares.
type resolving struct {
	v     *Vars
	chain []string
	b     *budget
}

func (r *resolving) Lookup(name string) (any, bool, error) {
	x, ok, err := r.v.lookup(name, r.chain, r.b)
	return plain(x), ok, err
}
func (r *resolving) LookupEnv() *Env { return r.v.Env }
func (r *resolving) lookupNative(name string, b *budget) (any, bool, error) {
	if b == nil {
		b = r.b
	}
	return r.v.lookup(name, r.chain, b)
}
func (r *resolving) rawLookup(name string) (any, bool) { return r.v.raw(name) }

// scopeBudget is the budget a rendering in scope shares, if any.
func scopeBudget(scope Scope) *budget {
	if r, ok := scope.(*resolving); ok {
		return r.b
	}
	return nil
}

// hasTemplate reports whether x is or contains a string with template
// markup.
func hasTemplate(x any) bool {
	switch t := x.(type) {
	case string:
		return IsTemplate(t)
	case []any:
		return slices.ContainsFunc(t, hasTemplate)
	case map[string]any:
		for _, e := range t {
			if hasTemplate(e) {
				return true
			}
		}
	}
	return false
}

// renderDeep renders every template string in x, through lists and dicts,
// keeping internal values (a lazily rendered variable's nativeText).
func renderDeep(x any, scope Scope) (any, error) { return renderValue(x, scope, false) }

// renderDeepKeepUndefined is renderDeep, keeping a template string that
// uses an undefined variable as it is.
func renderDeepKeepUndefined(x any, scope Scope) (any, error) { return renderValue(x, scope, true) }

func renderValue(x any, scope Scope, keepUndefined bool) (any, error) {
	switch t := x.(type) {
	case string:
		if !IsTemplate(t) {
			return t, nil
		}
		tm, err := ParseTemplate(t)
		if err != nil {
			return nil, err
		}
		out, err := tm.render(scope, nil, true)
		var ue *UndefinedError
		if keepUndefined && errors.As(err, &ue) {
			return t, nil
		}
		return out, err
	case []any:
		if err := scopeBudget(scope).alloc(int64(len(t)) * listItemBytes); err != nil {
			return nil, err
		}
		out := make([]any, len(t))
		for i, e := range t {
			r, err := renderValue(e, scope, keepUndefined)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case map[string]any:
		if err := scopeBudget(scope).alloc(int64(len(t)) * dictEntryBytes); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			r, err := renderValue(e, scope, keepUndefined)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return pydict.Like(out, t), nil
	}
	return x, nil
}

// RenderDeep renders every template string inside v (strings, lists and
// dicts, recursively) in scope, as Ansible templates task arguments.
// yaml11.Unsafe values are returned verbatim.
func RenderDeep(v any, scope Scope) (any, error) {
	out, err := renderDeep(v, scope)
	return plain(out), err
}

// local is a scope with template-local names ({% for %} targets, loop,
// {% set %}) over a parent.
type local struct {
	parent Scope
	vars   map[string]any
	// resolved are the names the frame resolved when it started (the
	// top frame of an evaluation, see resolve.go).
	resolved map[string]resolved
}

func (l *local) Lookup(name string) (any, bool, error) {
	v, ok, err := l.lookupNative(name, nil)
	return plain(v), ok, err
}

func (l *local) lookupNative(name string, b *budget) (any, bool, error) {
	if err := envOf(l.parent).checkPure("var", name); err != nil {
		return nil, true, err
	}
	if v, ok := l.vars[name]; ok {
		return v, true, nil
	}
	if r, ok := l.resolved[name]; ok {
		return r.v, r.ok, r.err
	}
	return lookupIn(l.parent, name, b)
}

func (l *local) rawLookup(name string) (any, bool) {
	if v, ok := l.vars[name]; ok {
		return v, true
	}
	if r, ok := l.parent.(rawScope); ok {
		return r.rawLookup(name)
	}
	v, ok, err := l.parent.Lookup(name)
	return v, ok && err == nil
}

func (l *local) LookupEnv() *Env { return envOf(l.parent) }

// envOf is s's Env, or noEnv.
func envOf(s Scope) *Env {
	if es, ok := s.(EnvScope); ok {
		if env := es.LookupEnv(); env != nil {
			return env
		}
	}
	return noEnv
}

// noEnv is the Env of a scope without one: one value, which nothing
// changes, so that the evaluator's copy of it (evaluator.env) is made once
// an evaluation.
var noEnv = &Env{}
