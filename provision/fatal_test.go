package provision_test

import (
	"strings"
	"testing"
)

// TestMaxFailFree: the free strategy does not check max_fail_percentage,
// as Ansible's (which warns): the other hosts go on, and so does the run.
func TestMaxFailFree(t *testing.T) {
	out, recap, err := play(t, "a\nb\nc\n", `
- hosts: all
  gather_facts: false
  strategy: free
  max_fail_percentage: 30
  tasks:
    - fail: msg=no
      when: inventory_hostname == 'a'
    - debug: msg=second
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg=play2
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Using max_fail_percentage with the free strategy is not supported") || strings.Contains(out, "NO MORE HOSTS LEFT") {
		t.Errorf("output:\n%s", out)
	}
	if s := recap.Stats["b"]; s.OK != 2 {
		t.Errorf("recap of b %+v\n%s", *s, out)
	}
}
