package provision_test

import "testing"

// TestEmptyLoopResult: a loop over no items registers what Ansible's
// does: skipped, with its reason and no results, and no msg.
func TestEmptyLoopResult(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: var=item
      loop: []
      register: r
    - assert:
        that:
          - r.msg is undefined
          - r.skipped
          - r.skipped_reason == 'No items in the list'
          - r.results == []
          - not r.changed
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 || recap.Stats["a"].OK != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestAllItemsSkipped: a loop whose every item is skipped says so in msg.
func TestAllItemsSkipped(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: var=item
      loop: [1, 2]
      when: item > 5
      register: r
    - assert:
        that:
          - r.skipped
          - r.msg == 'All items skipped'
          - r.results | length == 2
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 || recap.Stats["a"].OK != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
}
