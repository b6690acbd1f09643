package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAsyncPolledJobLeavesNothing: a command run with async: and polled to
// its end keeps its files in ~/.ansible_async while it runs, as Ansible's
// do, and removes them once its result is in; a poll: 0 job's stay for
// async_status. A polled result names its results_file, as Ansible's.
func TestAsyncPolledJobLeavesNothing(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - shell: sleep 1; echo done
      async: 10
      poll: 1
      register: polled
    - shell: echo later
      async: 10
      poll: 0
      register: fired
    - async_status: jid={{ fired.ansible_job_id }}
      register: st
      until: st is finished
      retries: 20
      delay: 1
    - assert:
        that:
          - polled.stdout == 'done'
          - polled is finished
          - polled.results_file == fired.results_file | dirname ~ '/' ~ polled.ansible_job_id
          - st.stdout == 'later'
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	left, _ := filepath.Glob(filepath.Join(home, ".ansible_async", "*"))
	var polled, fired int
	for _, f := range left {
		switch {
		case strings.Contains(f, "shell") || strings.HasSuffix(f, ".sh") && strings.Contains(readFile(t, f), "echo done"):
			polled++
		case strings.HasSuffix(f, ".sh"):
			fired++
		}
	}
	if polled != 0 || fired != 1 {
		t.Errorf("job files left: %v (polled job's %d, fired job's %d)", left, polled, fired)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, _ := os.ReadFile(path)
	return string(b)
}

// TestAsyncDir: ansible_async_dir moves a job's files; async_status looks
// in its own task's directory, so without the variable it does not find
// the job, as in Ansible.
func TestAsyncDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    custom: ~/.custom_async
  tasks:
    - shell: echo moo
      async: 5
      poll: 0
      register: job
      vars:
        ansible_async_dir: "{{ custom }}"
    - async_status: jid={{ job.ansible_job_id }}
      register: lost
      ignore_errors: true
    - async_status: jid={{ job.ansible_job_id }}
      register: found
      until: found is finished
      retries: 10
      delay: 1
      vars:
        ansible_async_dir: "{{ custom }}"
    - assert:
        that:
          - lost is failed
          - lost.msg == 'could not find job'
          - found.stdout == 'moo'
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	if fi, err := os.Stat(filepath.Join(home, ".custom_async")); err != nil || !fi.IsDir() {
		t.Errorf("~/.custom_async: %v", err)
	}
}

// TestAsyncRefused: as in Ansible, a task with async: fails when its
// action does not support async (debug, copy, raw, script, ...) or when
// it runs in check mode; failed_when still has the last word.
func TestAsyncRefused(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg=hi
      async: 5
      register: d
      ignore_errors: true
    - command: "true"
      async: 5
      check_mode: true
      register: c
      ignore_errors: true
    - set_fact: x=1
      async: 5
      failed_when: false
      register: s
    - assert:
        that:
          - d is failed
          - d.msg == "async is not supported for this task."
          - c is failed
          - c.msg == "check mode and async cannot be used on same task."
          - s is not failed
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 || recap.Stats["a"].Ignored != 2 {
		t.Fatalf("%v %+v\n%s", err, recap.Stats["a"], out)
	}
}

// TestAsyncStatusOfAnEarlierRun: a poll: 0 job started by one run is
// read by async_status in another (another controller, after a restart)
// as its module would have returned it: command's stdout without its
// trailing newline, its rc failing the task, its cmd. A job whose record
// names a module the reading run does not have gives the raw outcome.
func TestAsyncStatusOfAnEarlierRun(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - shell: echo first; echo oops >&2; exit 4
      async: 10
      poll: 0
      register: fired
    - copy: {content: "{{ fired.ansible_job_id }}", dest: "{{ lookup('env', 'HOME') }}/jid"}
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	out, recap, err = play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - async_status: jid={{ lookup('file', lookup('env', 'HOME') ~ '/jid') }}
      register: st
      until: st is finished
      retries: 20
      delay: 1
      ignore_errors: true
    - assert:
        that:
          - st is failed
          - st.rc == 4
          - st.stdout == 'first'
          - st.stdout_lines == ['first']
          - st.results_file == lookup('env', 'HOME') ~ '/.ansible_async/' ~ st.ansible_job_id
          - st.stderr == 'oops'
          - st.msg == 'non-zero return code'
          - "st.cmd == 'echo first; echo oops >&2; exit 4'"
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
}
