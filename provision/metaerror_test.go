package provision_test

import (
	"strings"
	"testing"
)

// TestMetaConditionErrorEndsRun: a meta task whose when: does not
// evaluate ends the run with that error and no recap, as ansible-playbook
// raises it from its strategy ("ERROR! The conditional check 'nope'
// failed…", exit 1); the tasks after it do not run.
func TestMetaConditionErrorEndsRun(t *testing.T) {
	for _, action := range []string{"end_host", "flush_handlers"} {
		out, _, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - meta: `+action+`
      when: nope
    - debug: msg=after
`, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "The conditional check 'nope' failed.") {
			t.Fatalf("%s: error %v", action, err)
		}
		if strings.Contains(out, "after") || strings.Contains(out, "PLAY RECAP") || strings.Contains(out, "FAILED") {
			t.Errorf("%s: output:\n%s", action, out)
		}
	}
}
