package provision_test

import (
	"fmt"
	"testing"
)

// TestRunOnceStatsPerHost: set_stats with per_host in a run_once task
// counts for every play host, its run-wide stats once, as Ansible's
// strategy gives them (recorded with ansible-playbook 2.14 and
// ANSIBLE_SHOW_CUSTOM_STATS=1).
func TestRunOnceStatsPerHost(t *testing.T) {
	_, recap, err := play(t, "a ansible_connection=local\nb ansible_connection=local\nc ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - set_stats:
        data: {x: 1}
        per_host: true
      run_once: true
    - set_stats:
        data: {y: 2}
      run_once: true
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(recap.Custom)
	if want := "map[_run:map[y:2] a:map[x:1] b:map[x:1] c:map[x:1]]"; got != want {
		t.Errorf("custom stats %s, want %s", got, want)
	}
}
