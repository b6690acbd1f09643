package tasks

import (
	"context"
	"slices"
	"testing"
)

type nopModule struct{ spec *Spec }

func (nopModule) Run(context.Context, *Env, Args) (Result, error) { return Result{}, nil }
func (m nopModule) Spec() *Spec                                   { return m.spec }

func TestRegistryDefs(t *testing.T) {
	r := &Registry{}
	r.Add(Def{Name: "sysctl", Aliases: []string{"ansible.posix.sysctl"}, New: func() Module { return nopModule{} }})
	r.Add(Def{Name: "shell", FreeForm: true, New: func() Module { return nopModule{} }})
	r.Add(Def{Name: "include_vars", New: func() Module { return nopModule{&Spec{FreeForm: true}} }})
	r.Register("copy", func() Module { return nopModule{} })
	for in, want := range map[string]string{
		"ansible.posix.sysctl": "sysctl", "ansible.builtin.sysctl": "sysctl", "ansible.legacy.copy": "copy",
		"community.general.nmcli": "community.general.nmcli", "ansible.posix.mount": "ansible.posix.mount",
	} {
		if got := r.Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
	if d, ok := r.Def("ansible.posix.sysctl"); !ok || d.Name != "sysctl" {
		t.Errorf("Def by alias: %+v %v", d, ok)
	}
	if d, _ := r.Def("shell"); !d.RawParams {
		t.Error("a free-form module takes raw params")
	}
	if d, _ := r.Def("include_vars"); d.FreeForm || !d.RawParams {
		t.Errorf("a Spec that accepts _raw_params gives RawParams only: %+v", d)
	}
	if d, _ := r.Def("copy"); d.FreeForm || d.RawParams {
		t.Errorf("copy: %+v", d)
	}
	if got := r.Names(); !slices.Equal(got, []string{"sysctl", "shell", "include_vars", "copy"}) {
		t.Errorf("Names() = %v", got)
	}
	small, err := r.Restrict("ansible.posix.sysctl", "copy")
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := small.Def("ansible.posix.sysctl"); !ok || d.Name != "sysctl" || len(small.Defs()) != 2 {
		t.Errorf("Restrict keeps the Defs whole: %+v %v", d, ok)
	}
	if _, ok := small.Lookup("shell"); ok {
		t.Error("Restrict kept a module it was not given")
	}
	if _, err := r.Restrict("mount"); err == nil {
		t.Error("Restrict of a module that is not registered must fail")
	}
	defer func() {
		if recover() == nil {
			t.Error("an alias registered twice must panic")
		}
	}()
	r.Add(Def{Name: "other", Aliases: []string{"ansible.posix.sysctl"}, New: func() Module { return nopModule{} }})
}

// TestRegistryNameFromSpec: a described module's name comes from its
// Spec; a Def that names it otherwise is a wiring mistake.
func TestRegistryNameFromSpec(t *testing.T) {
	r := &Registry{}
	r.Module(func() Module { return nopModule{&Spec{Module: "stamp"}} })
	if d, ok := r.Def("ansible.builtin.stamp"); !ok || d.Name != "stamp" {
		t.Errorf("stamp: %+v %v", d, ok)
	}
	for _, d := range []Def{
		{Name: "other", New: func() Module { return nopModule{&Spec{Module: "stamp2"}} }},
		{New: func() Module { return nopModule{} }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v was registered", d)
				}
			}()
			r.Add(d)
		}()
	}
}
