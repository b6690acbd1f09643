package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
)

// TestTagsSelectDynamicIncludes: under --tags t1, an include_tasks or
// include_role is selected by its own tags, as ansible-playbook 2.14 does
// (its output for this playbook: the untagged include and the untagged
// include_role of a missing role do not run; the tagged include runs
// inner-t1; the include in a block tagged t1 runs both inner tasks).
func TestTagsSelectDynamicIncludes(t *testing.T) {
	inc := filepath.Join(t.TempDir(), "inc.yml")
	if err := os.WriteFile(inc, []byte("- debug: msg=inner-t1\n  tags: t1\n- debug: msg=inner-untagged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, recap, err := play(t, "h1 ansible_connection=local\n", strings.ReplaceAll(`
- hosts: all
  gather_facts: false
  tasks:
    - include_tasks: INC
    - include_tasks: INC
      tags: t1
    - include_role:
        name: nope
    - block:
        - include_tasks: INC
      tags: t1
`, "INC", inc), func(r *provision.Runner) {
		r.Tags = playbooks.TagFilter{Only: []string{"t1"}}
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := *recap.Stats["h1"]; s.OK != 5 || s.Failed != 0 {
		t.Errorf("recap %+v, want ok=5 failed=0 as ansible-playbook", s)
	}
	if n := strings.Count(out, "included: "); n != 2 {
		t.Errorf("%d includes ran, want 2:\n%s", n, out)
	}
	if strings.Count(out, "inner-t1") != 2 || strings.Count(out, "inner-untagged") != 1 {
		t.Errorf("included tasks:\n%s", out)
	}
}
