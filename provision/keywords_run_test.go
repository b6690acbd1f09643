package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestThrottle: throttle bounds how many hosts run a task at once, below
// forks: three hosts, throttle 1, each holding a lock directory for a
// while (mkdir fails for a second holder), never overlap.
func TestThrottle(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, "lock")
	hosts := "a ansible_connection=local\nb ansible_connection=local\nc ansible_connection=local\n"
	out, recap, err := play(t, hosts, `
- hosts: all
  gather_facts: false
  tasks:
    - shell: "if mkdir `+lock+`; then sleep 0.3; rmdir `+lock+`; else echo overlap >> `+dir+`/bad; fi"
      throttle: 1
`, nil)
	if err != nil || recap.Stats["a"].Failed+recap.Stats["b"].Failed+recap.Stats["c"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad")); err == nil {
		t.Error("throttle: 1 let two hosts run the task at once")
	}
}

// TestTaskTimeout: a task's timeout stops its module and fails the task
// with Ansible's message; the play goes on under ignore_errors.
func TestTaskTimeout(t *testing.T) {
	start := time.Now()
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: sleep 30
      timeout: 1
      ignore_errors: true
      register: slow
    - assert:
        that:
          - slow is failed
          - "'failed to execute in the expected time frame (1)' in slow.msg"
          - slow.timedout.period == 1
`, nil)
	if err != nil || recap.Stats["a"].Ignored != 1 || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("the timed-out command was not stopped: the play took %v", took)
	}
}

// TestIgnoreUnreachable: with ignore_unreachable an unreachable task is
// counted ok and ignored, registered, and the host runs the next tasks.
func TestIgnoreUnreachable(t *testing.T) {
	out, recap, err := play(t, "down ansible_host=192.0.2.1\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: "true"
      ignore_unreachable: true
      register: r
    - debug:
        msg: "still here, unreachable={{ r.unreachable }}"
      delegate_to: localhost
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := recap.Stats["down"]
	if s.Unreachable != 0 || s.Ignored != 1 || !strings.Contains(out, "still here, unreachable=True") {
		t.Fatalf("recap %+v\n%s", *s, out)
	}
}

// TestDelegateFacts: facts a delegated task sets go to the delegate with
// delegate_facts, to the host without.
func TestDelegateFacts(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\nb ansible_connection=local\n", `
- hosts: a
  gather_facts: false
  tasks:
    - set_fact:
        mine: from a
      delegate_to: b
      delegate_facts: true
    - set_fact:
        kept: on a
      delegate_to: b
    - assert:
        that:
          - hostvars['b'].mine == 'from a'
          - mine is not defined
          - kept == 'on a'
          - hostvars['b'].kept is not defined
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
}
