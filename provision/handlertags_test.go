package provision_test

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
)

// TestNotifiedHandlersIgnoreTags: a handler that a selected task notified
// runs whatever its tags say and whatever --tags and --skip-tags select,
// never included, as ansible-playbook 2.14 does; a task the filter leaves
// out notifies nothing.
func TestNotifiedHandlersIgnoreTags(t *testing.T) {
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg=notifier
      changed_when: true
      tags: [t1]
      notify: [h1, h2, h3, h4]
    - debug: msg=left-out
      changed_when: true
      tags: [t2]
      notify: [h5]
  handlers:
    - {name: h1, debug: {msg: ran-h1}, tags: [other]}
    - {name: h2, debug: {msg: ran-h2}, tags: [t1]}
    - {name: h3, debug: {msg: ran-h3}, tags: [never]}
    - {name: h4, debug: {msg: ran-h4}}
    - {name: h5, debug: {msg: ran-h5}}
`
	for _, f := range []playbooks.TagFilter{{Only: []string{"t1"}}, {Only: []string{"t1"}, Skip: []string{"other", "never"}}, {Skip: []string{"t2"}}} {
		out, recap, err := play(t, "a ansible_connection=local\n", pb, func(r *provision.Runner) { r.Tags = f })
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range []string{"h1", "h2", "h3", "h4"} {
			if !strings.Contains(out, "ran-"+h) {
				t.Errorf("%+v: handler %s did not run:\n%s", f, h, out)
			}
		}
		if strings.Contains(out, "ran-h5") || strings.Contains(out, "left-out") {
			t.Errorf("%+v: a task the filter leaves out ran or notified:\n%s", f, out)
		}
		if s := recap.Stats["a"]; s.OK != 5 {
			t.Errorf("%+v: %+v", f, *s)
		}
	}
}
