package tasks

import (
	"fmt"

	"github.com/tender-sh/tender/internal/argsyntax"
	"github.com/tender-sh/tender/internal/fqcn"
)

// Def is one module in one place: the name playbooks call it by, the
// other names that mean it, how a task may write its arguments, and how
// to make it. The registry holds Defs; the playbook loader, `tender doc`
// and the engine all read modules from there, so no second list of
// module names can drift from what runs. The module's parameters are its
// Spec (the Described interface), read through Def.Spec.
type Def struct {
	// Name is the canonical name: short, without a collection prefix.
	// Left empty, it is the name the module's Spec gives (Spec.Module),
	// so that a described module writes its name once, in its Spec.
	Name string
	// Aliases are other names that mean this module: the fully
	// qualified names of collection modules tender implements
	// ("ansible.posix.sysctl"). ansible.builtin.NAME and
	// ansible.legacy.NAME always mean NAME and need no alias.
	Aliases []string
	// FreeForm: the module's arguments are a command line, of which
	// only Ansible's own k=v words (chdir=, creates=, ...) are split off
	// (Ansible's MODULE_REQUIRE_ARGS: shell, command, raw, script).
	FreeForm bool
	// RawParams: words of a task's argument line that are not k=v pairs
	// are the module's _raw_params (Ansible's RAW_PARAM_MODULES:
	// "include_vars: file.yml", "group_by: key=x"). Implied by FreeForm,
	// and by a Spec that accepts _raw_params.
	RawParams bool
	// Words, when set, are what its free-form argument may be (meta's
	// actions), checked when the playbook loads.
	Words []string
	// CmdParam: a cmd argument is the old name of the free-form command
	// line, which the loader moves to _raw_params (Ansible's
	// FREEFORM_ACTIONS: command, shell, script).
	CmdParam bool
	// Traits are how the engine treats the module beyond running it.
	Traits Traits
	// Engine is which of the engine's own actions this is (EngineDefs),
	// NotEngine for a module.
	Engine Engine
	// New makes the module. The loader reads Defs of the engine's own
	// actions (setup, meta, ...), which have none.
	New Factory
}

// Spec returns the module's parameters, nil when it does not describe
// them (or has no constructor).
func (d Def) Spec() *Spec {
	if d.New == nil {
		return nil
	}
	if ds, ok := d.New().(Described); ok {
		return ds.Spec()
	}
	return nil
}

// Factory makes a module. Modules are made once per run and shared by
// every host.
type Factory func() Module

// Registry maps module names to modules. The zero value is empty; fill it
// with Add or Register. It is safe for concurrent reads once filled.
type Registry struct {
	defs    map[string]Def
	aliases map[string]string
	names   []string
}

// Add registers d under its name and aliases. A Spec that accepts
// _raw_params gives the Def RawParams. Registering a name twice panics: it is a programming
// error.
func (r *Registry) Add(d Def) {
	if r.defs == nil {
		r.defs, r.aliases = map[string]Def{}, map[string]string{}
	}
	if d.New == nil {
		panic(fmt.Sprintf("tasks: module %q needs a constructor", d.Name))
	}
	s := d.Spec()
	switch {
	case s != nil && d.Name == "":
		d.Name = s.Module
	case s != nil && s.Module != "" && s.Module != d.Name:
		panic(fmt.Sprintf("tasks: module %q has the Spec of %q", d.Name, s.Module))
	}
	if d.Name == "" {
		panic("tasks: a module needs a name: Def.Name or its Spec's Module")
	}
	if d.FreeForm || (s != nil && s.FreeForm) {
		d.RawParams = true
	}
	for _, n := range append([]string{d.Name}, d.Aliases...) {
		if _, dup := r.defs[n]; dup {
			panic(fmt.Sprintf("tasks: module %q registered twice", n))
		}
		if _, dup := r.aliases[n]; dup {
			panic(fmt.Sprintf("tasks: module %q registered twice", n))
		}
	}
	r.defs[d.Name] = d
	for _, a := range d.Aliases {
		r.aliases[a] = d.Name
	}
	r.names = append(r.names, d.Name)
}

// Module adds the module f makes, with no aliases, under the name its
// Spec gives.
func (r *Registry) Module(f Factory) { r.Add(Def{New: f}) }

// Register adds a module with no aliases under its canonical name; Add
// takes the whole Def.
func (r *Registry) Register(name string, f Factory) { r.Add(Def{Name: name, New: f}) }

// Canonical maps a module name as a playbook writes it to the name the
// registry knows it by: "ansible.builtin.X" and "ansible.legacy.X" mean
// "X", and a registered alias means its module. Other names come back
// unchanged.
func (r *Registry) Canonical(name string) string {
	if c, ok := r.aliases[name]; ok {
		return c
	}
	return fqcn.Short(name)
}

// Def returns the module that name (as a playbook writes it) means: a
// registered module, or one of the engine's own actions (EngineDefs),
// which every registry knows.
func (r *Registry) Def(name string) (Def, bool) {
	c := r.Canonical(name)
	if d, ok := r.defs[c]; ok {
		return d, true
	}
	return engineDef(c)
}

// Lookup returns the constructor of the module name (as a playbook
// writes it) means.
func (r *Registry) Lookup(name string) (Factory, bool) {
	d, _ := r.Def(name)
	return d.New, d.New != nil
}

// ArgSyntax is how a task writes a module's arguments (its canonical
// name, FreeForm, RawParams, CmdParam, and the argument it evaluates as
// conditions), as the playbook loader asks it of a registry.
type ArgSyntax = argsyntax.Syntax

// ModuleArgs reports whether name (as a playbook writes it) is a
// registered module or one of the engine's own actions, and how a task
// writes its arguments. It is what the playbook loader asks of a registry
// (playbooks.Modules).
func (r *Registry) ModuleArgs(name string) (ArgSyntax, bool) {
	d, ok := r.Def(name)
	return ArgSyntax{Name: d.Name, FreeForm: d.FreeForm, RawParams: d.RawParams, CmdParam: d.CmdParam,
		Conditions: d.Traits.UntemplatedArg, Words: d.Words}, ok
}

// ActionNames lists the canonical names a task may use as its action:
// the registered modules' and the engine's own actions'.
func (r *Registry) ActionNames() []string {
	out := r.Names()
	for _, d := range engineDefs {
		if _, dup := r.defs[d.Name]; !dup {
			out = append(out, d.Name)
		}
	}
	return out
}

// Names lists the registered modules' canonical names in registration
// order.
func (r *Registry) Names() []string { return append([]string(nil), r.names...) }

// Defs lists the registered modules in registration order.
func (r *Registry) Defs() []Def {
	out := make([]Def, len(r.names))
	for i, n := range r.names {
		out[i] = r.defs[n]
	}
	return out
}

// Restrict returns a registry holding only the named modules, so an
// embedding program can refuse, say, shell and command before any host is
// touched: a playbook that uses a module outside the list fails to load.
// Naming a module that is not registered is an error.
func (r *Registry) Restrict(names ...string) (*Registry, error) {
	out := &Registry{}
	for _, n := range names {
		d, ok := r.Def(n)
		if !ok {
			return nil, fmt.Errorf("no module %q to allow", n)
		}
		if d.Engine != NotEngine {
			continue // every registry knows the engine's own actions
		}
		out.Add(d)
	}
	return out, nil
}
