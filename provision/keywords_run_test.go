package provision_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
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

// recordDialer logs each login it is asked for and connects locally.
type recordDialer struct {
	mu     sync.Mutex
	logins []string
}

func (d *recordDialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	d.mu.Lock()
	d.logins = append(d.logins, fmt.Sprintf("%s@%s:%d", t.User, t.Host, t.Port))
	d.mu.Unlock()
	return local.Dialer{}.Connect(ctx, t)
}

// TestConnectionKeywords: connection, remote_user and port keywords pick
// the login where the host's variables do not; a task that asks for
// another login gets a connection of its own, the others share one.
func TestConnectionKeywords(t *testing.T) {
	d := &recordDialer{}
	out, recap, err := play(t, "a ansible_host=192.0.2.1\nb ansible_host=192.0.2.2 ansible_user=fixed ansible_port=2222\n", `
- hosts: all
  gather_facts: false
  remote_user: deploy
  tasks:
    - command: "true"
    - command: "true"
    - command: "true"
      remote_user: ops
      port: 2200
    - command: "true"
      connection: local
`, func(r *provision.Runner) { withSSH(r, d) })
	if err != nil || recap.Stats["a"].Failed+recap.Stats["b"].Failed+recap.Stats["a"].Unreachable != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	sort.Strings(d.logins)
	want := []string{"deploy@192.0.2.1:0", "fixed@192.0.2.2:2222", "ops@192.0.2.1:2200"}
	if !reflect.DeepEqual(d.logins, want) {
		t.Errorf("logins %v, want %v (the variables of b win over the keywords; connection: local dials nothing)", d.logins, want)
	}
}

// TestLookupLoopsAndTemplateIncludes: with_vars loops read the task's
// variables, and a template file's {% include %} finds the file beside it.
func TestLookupLoopsAndTemplateIncludes(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"templates/main.j2":    "top {{ word }}\n{% include 'part.j2' %}",
		"templates/part.j2":    "part {{ word }}\n",
		"templates/looped.txt": "looped {{ word }}",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    word: hi
    first: one
    second: two
  tasks:
    - debug: msg={{ item }}
      with_vars: [first, second]
      register: v
    - template:
        src: `+dir+`/templates/main.j2
        dest: `+dir+`/out.txt
    - assert:
        that:
          - v.results | map(attribute='item') | list == ['one', 'two']
          - lookup('file', '`+dir+`/out.txt') == 'top hi\npart hi'
`, func(r *provision.Runner) {
		f, _ := builtin.Registry().Lookup("template")
		r.Modules.Register("template", f)
	})
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestWithLoopTerms: a with_ loop's string loses its surrounding blanks
// before it is rendered, and a scalar that is not a string reaches the
// lookup as it is (the sequence lookup refuses it, as Ansible's does).
func TestWithLoopTerms(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg={{ item }}
      with_sequence: "  2-3:n%d\n"
      register: s
    - debug: msg={{ item }}
      with_sequence: 2
      register: n
      ignore_errors: true
    - assert:
        that:
          - s.results | map(attribute='item') | list == ['n2', 'n3']
          - >-
            n.msg == "unknown error parsing with_sequence arguments: 2. Error was: expected string or bytes-like object, got 'int'"
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestVariablesKeepTheirOrder: set_fact's variables and registered
// results are listed in the order they were first set (Python's dict),
// as the varnames lookup shows them, whatever their names' sorted order.
func TestVariablesKeepTheirOrder(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - set_fact:
        qz_1: hello
        qz_2: world
        qa_1: x
    - set_fact: qy=1 qb=2
    - debug: msg=hi
      register: qr
    - set_fact:
        qz_1: again
    - assert:
        that:
          - lookup('varnames', '^q.*_\d', wantlist=True) == ['qz_1', 'qz_2', 'qa_1']
          - query('varnames', '^q') == ['qz_1', 'qz_2', 'qa_1', 'qy', 'qb', 'qr']
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestIntegerKeywordsTruncate: retries and delay are read as Python's
// int() reads them: a float is truncated (retries 2.9 is 2, delay 0.01 is
// 0), a string must be an integer (Python's message). Out of attempts, attempts says the
// retries, as Ansible reports it.
func TestIntegerKeywordsTruncate(t *testing.T) {
	start := time.Now()
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: "false"
      register: r
      until: r.rc == 0
      retries: 2.9
      delay: 0.01
      ignore_errors: true
    - assert:
        that: r.attempts == 2
    - command: "true"
      retries: "two"
      until: true
      ignore_errors: true
      register: bad
    - assert:
        that: "bad is failed and \"invalid literal for int() with base 10: 'two'\" in bad.msg"
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("delay 0.01 waited %v: it is 0 seconds", took)
	}
}

// flakyDialer refuses the first fails logins, then connects locally.
type flakyDialer struct {
	mu    sync.Mutex
	fails int
	tries int
}

func (d *flakyDialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	d.mu.Lock()
	d.tries++
	down := d.tries <= d.fails
	d.mu.Unlock()
	if down {
		return nil, transport.Unreachable(t.Name, fmt.Errorf("connection refused"))
	}
	return local.Dialer{}.Connect(ctx, t)
}

// TestWaitForConnection: wait_for_connection logs in again until the host
// answers, then reports the time it took; a host that never answers fails
// the task at the timeout with Ansible's message.
func TestWaitForConnection(t *testing.T) {
	d := &flakyDialer{fails: 2}
	out, recap, err := play(t, "h ansible_host=192.0.2.9\n", `
- hosts: all
  gather_facts: false
  tasks:
    - wait_for_connection: sleep=1 timeout=20
      register: w
    - assert:
        that: w.elapsed >= 1
`, func(r *provision.Runner) { withSSH(r, d) })
	if err != nil || recap.Stats["h"].Failed+recap.Stats["h"].Unreachable != 0 || d.tries != 3 {
		t.Fatalf("tries %d, %v\n%s", d.tries, err, out)
	}
	d = &flakyDialer{fails: 1000}
	out, recap, err = play(t, "h ansible_host=192.0.2.9\n", `
- hosts: all
  gather_facts: false
  tasks:
    - wait_for_connection: sleep=1 timeout=2
      ignore_errors: true
      register: w
    - assert:
        that: "w is failed and 'timed out waiting for ping module test' in w.msg"
      delegate_to: localhost
`, func(r *provision.Runner) { withSSH(r, d) })
	if err != nil || recap.Stats["h"].Failed != 0 || recap.Stats["h"].Ignored != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestReboot: reboot runs the reboot command, waits for the boot time
// command to answer something else, runs the test command, and says
// rebooted; check mode runs nothing.
func TestReboot(t *testing.T) {
	dir := t.TempDir()
	boot := filepath.Join(dir, "boot_id")
	os.WriteFile(boot, []byte("first\n"), 0o644)
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - reboot:
        boot_time_command: cat ` + boot + `
        reboot_command: sh -c 'sleep 1; echo second > ` + boot + `'
        test_command: "true"
      register: r
    - assert:
        that:
          - r is changed
          - r.rebooted
`
	out, recap, err := play(t, "a ansible_connection=local\n", pb, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	if b, _ := os.ReadFile(boot); string(b) != "second\n" {
		t.Errorf("boot id %q: the reboot command did not run", b)
	}
	os.WriteFile(boot, []byte("first\n"), 0o644)
	out, _, err = play(t, "a ansible_connection=local\n", pb, func(r *provision.Runner) { r.Check = true })
	if b, _ := os.ReadFile(boot); err != nil || string(b) != "first\n" {
		t.Errorf("check mode rebooted (%q): %v\n%s", b, err, out)
	}
}

// TestLoopItemsException: a loop whose items raise an exception that is
// not Ansible's (re.error) fails the task as Ansible's worker reports it
// (recorded from ansible-playbook 2.14 in testdata/engine/pyexceptions).
func TestLoopItemsException(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: msg=x
      loop: "{{ ['a'] | map('regex_replace', '^', '\\1') | list }}"
      register: r
      ignore_errors: true
    - assert:
        that:
          - "r.msg == 'Unexpected failure during module execution: invalid group reference 1 at position 1'"
          - r.stdout == ''
          - "'re.error: invalid group reference 1' in r.exception"
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestUntilSeesSetFactFacts: until, as changed_when, sees the facts the
// task's set_fact sets (Ansible updates the condition's variables with
// them), so a set_fact that already holds is not retried.
func TestUntilSeesSetFactFacts(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    n: 0
  tasks:
    - set_fact:
        n: "{{ n | int + 1 }}"
      until: n | int >= 1
      retries: 2
      delay: 0
    - assert:
        that: n == "1"
`, nil)
	if err != nil || recap.Stats["a"].Failed != 0 || strings.Contains(out, "RETRYING") {
		t.Fatalf("%v\n%s", err, out)
	}
}
