package builtin

import (
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/moddoc"
)

// TestModuleDocs holds every registered module to its documentation
// (tasks/builtin/moddoc/NAME.yml): the file reads; it describes every
// parameter a playbook gives and no other; it documents every value
// Ansible's module of that name documents as returned
// (testdata/specs/specs.json); and its examples are tasks that call the
// module with parameters it takes. A documentation file for no module
// fails too.
func TestModuleDocs(t *testing.T) {
	rec := loadRecordedSpecs(t)
	reg := Registry()
	seen := map[string]bool{}
	for _, d := range reg.Defs() {
		seen[d.Name] = true
		doc, err := moddoc.For(d.Name)
		if err != nil {
			t.Error(err)
			continue
		}
		s := d.Spec()
		params := map[string]*tasks.Param{}
		for i, p := range s.Params {
			if strings.HasPrefix(p.Name, "_") {
				continue
			}
			params[p.Name] = &s.Params[i]
			if len(doc.Options[p.Name]) == 0 || strings.TrimSpace(doc.Options[p.Name][0]) == "" {
				t.Errorf("%s: parameter %s is not described", d.Name, p.Name)
			}
		}
		for o := range doc.Options {
			if params[o] == nil {
				t.Errorf("%s: describes %s, which is not a parameter", d.Name, o)
			}
		}
		if len(doc.Description) == 0 {
			t.Errorf("%s: no description", d.Name)
		}
		if r, ok := rec[d.Name]; ok {
			for _, key := range r.Returns {
				if _, ok := doc.Returns[key]; !ok {
					t.Errorf("%s: the returned value %s is not documented", d.Name, key)
				}
			}
		}
		for k, r := range doc.Returns {
			if len(r.Description) == 0 || r.Returned == "" || r.Type == "" {
				t.Errorf("%s: return value %s needs a description, returned and type", d.Name, k)
			}
		}
		checkExamples(t, d, s, doc.Examples)
	}
	for _, n := range moddoc.Names() {
		if !seen[n] {
			t.Errorf("tasks/builtin/moddoc/%s.yml documents no registered module", n)
		}
	}
}

// checkExamples: the examples are YAML tasks, at least one of which
// calls module d, and each call gives only parameters d takes (any key,
// for a module whose Spec.Other says it takes any).
func checkExamples(t *testing.T, d tasks.Def, s *tasks.Spec, text string) {
	t.Helper()
	var list []map[string]any
	if err := yaml.Unmarshal([]byte(text), &list); err != nil {
		t.Errorf("%s: the examples are not a YAML task list: %v", d.Name, err)
		return
	}
	names := append([]string{d.Name, "ansible.builtin." + d.Name}, d.Aliases...)
	calls := 0
	for _, task := range list {
		for k, v := range task {
			if !slices.Contains(names, k) && !slices.Contains(names, fqcn.Short(k)) {
				continue
			}
			calls++
			args, ok := v.(map[string]any)
			if !ok || s.Other != "" {
				continue // free form, no arguments, or any key (set_fact's facts)
			}
			for a := range args {
				if !takes(s, a) {
					t.Errorf("%s: an example gives %s, which the module does not take", d.Name, a)
				}
			}
		}
	}
	if calls == 0 {
		t.Errorf("%s: no example calls the module", d.Name)
	}
}

// takes: s accepts argument a (a parameter or an alias).
func takes(s *tasks.Spec, a string) bool {
	for _, p := range s.Params {
		if p.Name == a || slices.Contains(p.Aliases, a) {
			return true
		}
	}
	return false
}
