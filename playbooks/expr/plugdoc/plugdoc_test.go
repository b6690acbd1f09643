package plugdoc

import (
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestPluginDocs holds every documentation file to the plugin it
// documents: tender runs the plugin; ansible-core documents it (its
// facts are recorded in facts.json); every option ansible-core documents
// is described and no other; every value it documents as returned is
// documented; the examples are YAML. And every plugin both tender runs
// and ansible-core documents has a file.
func TestPluginDocs(t *testing.T) {
	for _, kind := range Kinds {
		have := Implemented(kind)
		for _, name := range Names(kind) {
			d, err := For(kind, name)
			if err != nil {
				t.Error(err)
				continue
			}
			where := kind + "/" + name + ".yml"
			if !slices.Contains(have, name) {
				t.Errorf("%s: tender has no %s %s", where, kind, name)
			}
			f, ok := FactsOf(kind, name)
			if !ok {
				t.Errorf("%s: ansible-core documents no %s %s (facts.json)", where, kind, name)
				continue
			}
			for o := range f.Options {
				if len(d.Options[o]) == 0 || strings.TrimSpace(d.Options[o][0]) == "" {
					t.Errorf("%s: option %s is not described", where, o)
				}
			}
			for o := range d.Options {
				if _, ok := f.Options[o]; !ok {
					t.Errorf("%s: describes %s, which is not an option", where, o)
				}
			}
			for _, r := range f.Returns {
				if _, ok := d.Returns[r]; !ok {
					t.Errorf("%s: the returned value %s is not documented", where, r)
				}
			}
			if len(d.Description) == 0 || d.Examples == "" {
				t.Errorf("%s: needs a description and examples", where)
			}
			var ex any
			if err := yaml.Unmarshal([]byte(d.Examples), &ex); err != nil {
				t.Errorf("%s: the examples are not YAML: %v", where, err)
			}
		}
		for _, name := range Recorded(kind) {
			if slices.Contains(have, name) && !slices.Contains(Names(kind), name) {
				t.Errorf("the %s %s (tender runs it, ansible-core documents it) has no %s/%s.yml", kind, name, kind, name)
			}
		}
	}
}

// TestJinjaDocs holds jinja/KIND.yml to Jinja2's builtins tender runs:
// each documented name is a filter or test tender has that ansible-core
// does not document, with its options' facts for exactly the options it
// describes, a description and YAML examples; and every filter and test
// tender runs is documented, in KIND/NAME.yml or there.
func TestJinjaDocs(t *testing.T) {
	for _, kind := range []string{"filter", "test"} {
		names, err := JinjaNames(kind)
		if err != nil {
			t.Fatal(err)
		}
		have := Implemented(kind)
		for _, name := range names {
			where := "jinja/" + kind + ".yml: " + name
			d, f, ok := Jinja(kind, name)
			if !ok {
				t.Fatalf("%s: not found", where)
			}
			if !slices.Contains(have, name) {
				t.Errorf("%s: tender has no such %s", where, kind)
			}
			if _, recorded := FactsOf(kind, name); recorded {
				t.Errorf("%s: ansible-core documents it; it belongs in %s/%s.yml", where, kind, name)
			}
			if len(f.Options) == 0 || f.Options["_input"].Type == "" {
				t.Errorf("%s: no facts for _input", where)
			}
			for o := range f.Options {
				if len(d.Options[o]) == 0 {
					t.Errorf("%s: option %s has facts but no description", where, o)
				}
			}
			for o := range d.Options {
				if _, ok := f.Options[o]; !ok {
					t.Errorf("%s: option %s has no facts", where, o)
				}
			}
			var ex any
			if err := yaml.Unmarshal([]byte(d.Examples), &ex); err != nil || len(d.Description) == 0 {
				t.Errorf("%s: needs a description and YAML examples (%v)", where, err)
			}
		}
		for _, name := range have {
			if _, err := For(kind, name); err != nil {
				t.Errorf("the %s %s tender runs has no documentation", kind, name)
			}
		}
	}
}
