package provision_test

import "testing"

// TestStatsOfMarkedValuesAddUp: custom stats built from marked values (a
// lookup's, a host's) add up as plain ones do: they are shown, never
// templated.
func TestStatsOfMarkedValuesAddUp(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - set_stats:
        data: {s: "{{ lookup('items', 'x') }}", l: "{{ query('items', 'y') }}"}
    - set_stats:
        data: {s: "{{ lookup('items', 'z') }}", l: "{{ query('items', 'w') }}"}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := recap.Custom["_run"]
	if c["s"] != "xz" {
		t.Errorf("s = %#v, want \"xz\"\n%s", c["s"], out)
	}
	if l, ok := c["l"].([]any); !ok || len(l) != 2 || l[0] != "y" || l[1] != "w" {
		t.Errorf("l = %#v, want [y w]\n%s", c["l"], out)
	}
}
