package provision_test

import (
	"strings"
	"testing"
)

// TestControllerActionsNeedNoConnection: actions that run on the
// controller alone (debug, set_fact, assert) make no connection, so they
// work on a host that cannot be reached, and when delegated to one.
func TestControllerActionsNeedNoConnection(t *testing.T) {
	out, recap, err := play(t, "up1\ndown1\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg=hello
    - set_fact:
        seen: true
    - assert:
        that: seen

- hosts: up1
  gather_facts: false
  tasks:
    - set_fact:
        from_up1: true
      delegate_to: down1
      delegate_facts: true
    - debug:
        msg: "{{ hostvars['down1'].from_up1 }}"
      delegate_to: down1
    - command: "true"
      delegate_to: down1
      ignore_unreachable: true
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["down1"]; s.OK != 3 || s.Unreachable != 0 {
		t.Errorf("down1: %+v\n%s", *s, out)
	}
	if s := recap.Stats["up1"]; s.OK != 6 || s.Unreachable != 0 {
		t.Errorf("up1: %+v\n%s", *s, out)
	}
	if !strings.Contains(out, "fatal: [up1 -> down1]: UNREACHABLE!") {
		t.Errorf("the command delegated to down1 did not try to connect:\n%s", out)
	}
}
