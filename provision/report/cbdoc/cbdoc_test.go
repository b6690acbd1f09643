package cbdoc

import (
	"slices"
	"testing"
)

// TestCallbackDocs: every callback tender has is documented, each
// option it records described and no other, and the short and full
// names both find it.
func TestCallbackDocs(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ansible.builtin.default", "ansible.builtin.minimal", "ansible.builtin.oneline", "ansible.posix.json",
		"community.general.yaml", "ansible.posix.profile_tasks", "ansible.posix.timer", "ansible.builtin.junit"} {
		if _, ok := all[want]; !ok {
			t.Errorf("%s is not documented", want)
		}
	}
	for name, c := range all {
		for o := range c.Facts.Options {
			if len(c.Doc.Options[o]) == 0 {
				t.Errorf("%s: option %s is not described", name, o)
			}
		}
		for o := range c.Doc.Options {
			if _, ok := c.Facts.Options[o]; !ok {
				t.Errorf("%s: describes %s, which is not an option", name, o)
			}
		}
		if c.Facts.Type == "" || len(c.Doc.Description) == 0 {
			t.Errorf("%s: needs a type and a description", name)
		}
	}
	if c, ok := Find("profile_tasks"); !ok || c.FQCN != "ansible.posix.profile_tasks" {
		t.Errorf("Find(profile_tasks): %+v %v", c.FQCN, ok)
	}
	o := all["ansible.posix.profile_tasks"].Facts.Options["sort_order"]
	if via := o.SetVia(); !slices.Equal(via, []string{"env:", "- name: PROFILE_TASKS_SORT_ORDER", "ini:", "- key: sort_order", "  section: callback_profile_tasks"}) {
		t.Errorf("set_via: %q", via)
	}
	if names := Names(); !slices.IsSorted(names) || len(names) != len(all) {
		t.Errorf("Names: %v", names)
	}
}
