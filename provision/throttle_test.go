package provision_test

import (
	"strings"
	"testing"
)

// TestThrottleUnderFreeStrategy: under free and host_pinned, throttle
// still bounds how many hosts run the task at once, though each host
// goes through the tasks on its own.
func TestThrottleUnderFreeStrategy(t *testing.T) {
	for _, strategy := range []string{"free", "host_pinned"} {
		dir := t.TempDir()
		out, recap, err := play(t, "[all:vars]\nansible_connection=local\n[hosts]\nh[1:6]\n", `
- hosts: all
  gather_facts: false
  strategy: `+strategy+`
  tasks:
    - block:
        - shell: |
            mkdir `+dir+`/{{ inventory_hostname }}
            n=$(ls `+dir+` | wc -l)
            sleep 0.3
            rmdir `+dir+`/{{ inventory_hostname }}
            echo "$n at once"
            [ "$n" -le 2 ]
      throttle: 2
`, nil)
		if err != nil {
			t.Fatal(err)
		}
		if recap.Failed() {
			t.Errorf("%s: more than 2 hosts at once:\n%s", strategy, out)
		}
		if !strings.Contains(out, "changed: [h6]") {
			t.Errorf("%s: h6 did not run:\n%s", strategy, out)
		}
	}
}
