package provision_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
)

// TestPlayOrder: a play's order keyword puts its hosts in the order
// Ansible's inventory gives them (templated once per play); an unknown
// one stops the run with Ansible's options error.
func TestPlayOrder(t *testing.T) {
	inv := "b ansible_connection=local\nc ansible_connection=local\na ansible_connection=local\n"
	for order, want := range map[string]string{
		"inventory": "b c a", "reverse_inventory": "a c b", "sorted": "a b c",
		"reverse_sorted": "c b a", "\"{{ 'sorted' }}\"": "a b c",
	} {
		var seen []string
		_, _, err := play(t, inv, `
- hosts: all
  gather_facts: false
  order: `+order+`
  tasks:
    - debug: msg=x
`, func(r *provision.Runner) {
			r.Forks = 1
			r.Events = func(e provision.Event) {
				if e.Kind == provision.HostResult {
					seen = append(seen, e.Host)
				}
			}
		})
		if err != nil || strings.Join(seen, " ") != want {
			t.Errorf("order %s: %v %v, want %s", order, seen, err, want)
		}
	}
	var seen []string
	_, _, err := play(t, inv, "- hosts: all\n  gather_facts: false\n  order: shuffle\n  tasks:\n    - debug: msg=x\n", func(r *provision.Runner) {
		r.Events = func(e provision.Event) {
			if e.Kind == provision.HostResult {
				seen = append(seen, e.Host)
			}
		}
	})
	slices.Sort(seen)
	if err != nil || strings.Join(seen, " ") != "a b c" {
		t.Errorf("shuffle: %v %v", seen, err)
	}
	_, _, err = play(t, inv, "- hosts: all\n  gather_facts: false\n  order: bogus\n  tasks:\n    - debug: msg=x\n", nil)
	var oe *provision.OptionsError
	if !errors.As(err, &oe) || oe.Msg != "Invalid 'order' specified for inventory hosts: bogus" {
		t.Errorf("bogus: %v", err)
	}
}
