package provision_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"

	"github.com/tender-sh/tender/tasks/builtin"
)

// downDialer refuses hosts named "down*" as unreachable and connects the
// rest locally.
type downDialer struct{}

func (downDialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	if strings.HasPrefix(t.Name, "down") {
		return nil, transport.Unreachable(t.Name, errors.New("connection refused"))
	}
	return local.Dialer{}.Connect(ctx, t)
}

// play writes the inventory and playbook into a temp dir and runs it.
// loadPlay writes hosts and pb into a temporary directory and loads them.
func loadPlay(t *testing.T, hosts, pb string) (*inventory.Inventory, *playbooks.Playbook) {
	t.Helper()
	_, inv, p := loadTree(t, map[string]string{"hosts": hosts, "pb.yml": pb})
	return inv, p
}

// loadTree writes files (path → text, with "hosts" and "pb.yml") into a
// new directory and loads the inventory and the playbook from it.
func loadTree(t *testing.T, files map[string]string) (string, *inventory.Inventory, *playbooks.Playbook) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	inv, err := inventory.Load(filepath.Join(dir, "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	return dir, inv, p
}

// writeTree writes files (path → text) below dir, executable.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// withSSH makes d the runner's ssh connection type, local staying local.
func withSSH(r *provision.Runner, d transport.Dialer) {
	r.Connections = transport.NewConnections().Add("ssh", d).Add("local", local.Dialer{})
}

func play(t *testing.T, hosts, pb string, tune func(*provision.Runner)) (string, *provision.Recap, error) {
	t.Helper()
	inv, p := loadPlay(t, hosts, pb)
	var out bytes.Buffer
	r := &provision.Runner{Inventory: inv, Modules: testModules(), Connections: transport.NewConnections().Add("ssh", downDialer{}).Add("local", local.Dialer{}),
		Events: report.Text(&out, false)}
	if tune != nil {
		tune(r)
	}
	recap, err := r.Run(context.Background(), p)
	return out.String(), recap, err
}

func TestUnreachableHostStopsOnlyItself(t *testing.T) {
	out, recap, err := play(t, "up1\ndown1\nup2\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: "true"
    - debug: msg=second
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["down1"]; s.Unreachable != 1 || s.OK != 0 {
		t.Errorf("down1: %+v", *s)
	}
	for _, h := range []string{"up1", "up2"} {
		if s := recap.Stats[h]; s.OK != 2 || s.Changed != 1 {
			t.Errorf("%s: %+v", h, *s)
		}
	}
	if !strings.Contains(out, "fatal: [down1]: UNREACHABLE! => ") || !recap.Unreachable() || recap.Failed() {
		t.Errorf("output:\n%s", out)
	}
}

func TestCheckModeChangesNothing(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "f")
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - copy: dest=` + dest + ` content=hello
      notify: h
  handlers:
    - name: h
      command: touch ` + dest + `.handler
`
	_, recap, err := play(t, "h1 ansible_connection=local\n", pb, func(r *provision.Runner) { r.Check = true })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatalf("check mode wrote %s", dest)
	}
	if s := recap.Stats["h1"]; s.Changed != 1 {
		t.Errorf("check mode must still report the change: %+v", *s)
	}
	// For real, then a second run changes nothing.
	for run, wantChanged := range []int{2, 0} {
		_, recap, err := play(t, "h1 ansible_connection=local\n", pb, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s := recap.Stats["h1"]; s.Changed != wantChanged {
			t.Errorf("run %d: %+v, want changed=%d", run+1, *s, wantChanged)
		}
		os.Remove(dest + ".handler")
	}
}

func TestNoLogHidesSecrets(t *testing.T) {
	out, _, err := play(t, "h1 ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    token: s3cr3t-value
  tasks:
    - command: echo {{ token }}
      no_log: true
    - fail: msg="{{ token }}"
      no_log: true
`, func(r *provision.Runner) {
		text := r.Events
		r.Events = func(e provision.Event) {
			if strings.Contains(e.Msg, "s3cr3t") || strings.Contains(fmt.Sprint(e.Item, e.Result), "s3cr3t") {
				t.Errorf("an event carries the no_log secret: %+v", e)
			}
			text(e)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "s3cr3t") || !strings.Contains(out, "the output has been hidden") {
		t.Fatalf("no_log output leaked or was not censored:\n%s", out)
	}
}

func TestRunOnceAndTagsAndLimit(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\nb ansible_connection=local\nc ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: echo once
      run_once: true
      register: r
    - debug: msg="{{ r.stdout }}"
      tags: [show]
    - debug: msg=untagged
`, func(r *provision.Runner) {
		r.Limit = "a:b"
		r.Tags = playbooks.TagFilter{Only: []string{"show"}}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := recap.Stats["c"]; ok && *recap.Stats["c"] != (provision.Stats{}) {
		t.Errorf("--limit a:b ran on c: %+v", *recap.Stats["c"])
	}
	if strings.Contains(out, "untagged") || strings.Contains(out, "TASK [command]") {
		t.Errorf("--tags show ran other tasks:\n%s", out)
	}
	if strings.Count(out, `"msg": "once"`) != 0 {
		t.Errorf("run_once task should have been skipped by tags:\n%s", out)
	}
}

func TestRunOnceSharesResult(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\nb ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: echo once-{{ inventory_hostname }}
      run_once: true
      register: r
    - debug: msg="{{ r.stdout }}"
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, `"msg": "once-a"`) != 2 || recap.Stats["b"].Changed != 0 {
		t.Errorf("run_once result not shared:\n%s", out)
	}
}

func TestAnyErrorsFatalStopsThePlay(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\nb ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  any_errors_fatal: true
  tasks:
    - fail: msg=stop
      when: inventory_hostname == 'a'
    - debug: msg=never
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "never") || recap.Stats["a"].Failed != 1 {
		t.Errorf("any_errors_fatal did not stop the play:\n%s", out)
	}
}

func TestEnvironmentAndBecome(t *testing.T) {
	sudoDir, log := fakeSudo(t)
	t.Setenv("PATH", sudoDir+":"+os.Getenv("PATH"))
	out, _, err := play(t, "h1 ansible_connection=local ansible_become_password=pw-secret\n", `
- hosts: all
  gather_facts: false
  environment:
    GREETING: hello
  tasks:
    - command: echo $GREETING $EXTRA
      environment:
        EXTRA: "{{ inventory_hostname }}"
      become: true
      become_user: app
      register: r
    - debug: msg="{{ r.stdout }}"
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"msg": "hello h1"`) {
		t.Errorf("environment not applied:\n%s", out)
	}
	data, _ := os.ReadFile(log)
	if !strings.Contains(string(data), "-u app") || !strings.Contains(string(data), "password: pw-secret") {
		t.Errorf("become did not go through sudo with the password on stdin: %s", data)
	}
	if strings.Contains(out, "pw-secret") {
		t.Errorf("the become password reached the output")
	}
}

func TestCancelStopsPromptly(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hosts"), []byte("a ansible_connection=local\nb ansible_connection=local\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pb.yml"), []byte("- hosts: all\n  gather_facts: false\n  tasks:\n    - command: sleep 30\n    - debug: msg=after\n"), 0o644)
	inv, _ := inventory.Load(filepath.Join(dir, "hosts"))
	p, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &provision.Runner{Inventory: inv, Modules: testModules(), Connections: transport.NewConnections().Add("ssh", local.Dialer{}).Add("local", local.Dialer{})}
	h := r.Start(ctx, p)
	started := make(chan struct{})
	go func() {
		for e := range h.Events {
			if e.Kind == provision.TaskStart {
				select {
				case <-started:
				default:
					close(started)
				}
			}
		}
	}()
	<-started
	time.Sleep(100 * time.Millisecond)
	cancel()
	done := make(chan error, 1)
	go func() { _, err := h.Wait(); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Wait after cancel: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not stop after cancel")
	}
}

// TestRestrictedModulesRefusePlaybook: an embedding program that allows
// only some modules gets a load error for a playbook using another one,
// before any host is touched.
func TestRestrictedModulesRefusePlaybook(t *testing.T) {
	restricted, err := testModules().Restrict("copy", "debug")
	if err != nil {
		t.Fatal(err)
	}
	r := &provision.Runner{Modules: restricted}
	dir := t.TempDir()
	path := filepath.Join(dir, "pb.yml")
	os.WriteFile(path, []byte("- hosts: all\n  tasks:\n    - meta: flush_handlers\n    - debug: msg=ok\n    - command: rm -rf /tmp/x\n"), 0o644)
	_, err = playbooks.Load(path, playbooks.Options{Modules: r.Modules})
	if err == nil || !strings.Contains(err.Error(), `"command"`) || strings.Contains(err.Error(), "meta") {
		t.Fatalf("a playbook using command must be refused (and meta allowed): %v", err)
	}
}

// TestHostvarsRenderInTheirHostsScope: another host's templated variable
// renders with that host's values, as Ansible's hostvars does.
func TestHostvarsRenderInTheirHostsScope(t *testing.T) {
	out, _, err := play(t, "a ansible_connection=local greeting='hi {{ inventory_hostname }}'\nb ansible_connection=local greeting='hi {{ inventory_hostname }}'\n", `
- hosts: a
  gather_facts: false
  tasks:
    - debug: msg="{{ hostvars['b'].greeting }} / {{ hostvars['b']['inventory_hostname'] }} "
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"msg": "hi b / b "`) {
		t.Fatalf("hostvars rendered in the wrong scope:\n%s", out)
	}
}

// TestTemplatedIncludeFailsLoudly: a templated include whose rendered
// file does not exist fails the host with the include's file:line:col
// instead of running nothing.
func TestTemplatedIncludeFailsLoudly(t *testing.T) {
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  vars:
    which: extra
  tasks:
    - include_tasks: "{{ which }}.yml"
    - debug: msg=after
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if recap.Stats["a"].Failed != 1 || !strings.Contains(out, `pb.yml:7:7: could not find or access \"extra.yml\"`) || strings.Contains(out, "after") {
		t.Fatalf("recap %+v\n%s", *recap.Stats["a"], out)
	}
}

// TestVerbosity: with -v every result is shown.
func TestVerbosity(t *testing.T) {
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - command: echo shown-with-v
`
	out, _, err := play(t, "a ansible_connection=local\n", pb, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "shown-with-v") {
		t.Errorf("without -v the command's output must not be shown:\n%s", out)
	}
	out, _, err = play(t, "a ansible_connection=local\n", pb, func(r *provision.Runner) { r.Verbosity = 1 })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"stdout": "shown-with-v"`) {
		t.Errorf("with -v the command's result must be shown:\n%s", out)
	}
}

// TestSetStats: set_stats data adds up over tasks for the run or per
// host, or is replaced without aggregate, as Ansible's custom stats.
func TestSetStats(t *testing.T) {
	_, recap, err := play(t, "a ansible_connection=local\nb ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - set_stats:
        data: {deployed: 1, hosts: ["{{ inventory_hostname }}"], last: x}
    - set_stats:
        data: {deployed: 2, last: y}
    - set_stats:
        data: {last: z}
        aggregate: false
    - set_stats:
        data: {mine: "{{ inventory_hostname }}"}
        per_host: true
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := recap.Custom["_run"]
	if run["deployed"] != 6 || run["last"] != "z" || len(run["hosts"].([]any)) != 2 {
		t.Errorf("run stats %v, want deployed 6 (1+2 on two hosts), last z, two hosts", run)
	}
	if recap.Custom["a"]["mine"] != "a" || recap.Custom["b"]["mine"] != "b" {
		t.Errorf("per-host stats %v", recap.Custom)
	}
}

// TestBecomeVariables: ansible_become, ansible_become_user and
// ansible_become_method from the inventory or -e override the become
// keywords, as every variable overrides a keyword in Ansible.
func TestBecomeVariables(t *testing.T) {
	sudoDir, log := fakeSudo(t)
	t.Setenv("PATH", sudoDir+":"+os.Getenv("PATH"))
	_, recap, err := play(t, "h1 ansible_connection=local ansible_become=yes ansible_become_user=svc\n", `
- hosts: all
  gather_facts: false
  tasks:
    - command: "true"
    - command: "true"
      become: false
      vars:
        ansible_become: false
`, nil)
	if err != nil || recap.Stats["h1"].Failed != 0 {
		t.Fatalf("run: %v %+v", err, recap.Stats["h1"])
	}
	data, _ := os.ReadFile(log)
	if n := strings.Count(string(data), "-u svc"); n != 1 {
		t.Errorf("sudo -u svc ran %d times, want once (the inventory's ansible_become for the first task, the task's var off for the second):\n%s", n, data)
	}
}

type diffModule struct{}

func (diffModule) Run(_ context.Context, env *tasks.Env, _ tasks.Args) (tasks.Result, error) {
	res := tasks.Result{Changed: true, Warnings: []string{"something to know"}}
	if env.Diff {
		res.Diff = "--- before: f\n+++ after: f\n@@ -1 +1 @@\n-a\n+b\n"
	}
	return res, nil
}

// TestDiffAndWarnings: a module's diff is printed before its result line
// in --diff mode only (never for no_log), and its warnings as [WARNING]
// lines.
func TestDiffAndWarnings(t *testing.T) {
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - lineinfile: path=x
      register: first
    - lineinfile: path=x
      no_log: true
    - assert:
        that: first.warnings == ['something to know']
`
	withDiffy := func(diff bool) func(r *provision.Runner) {
		return func(r *provision.Runner) {
			r.Modules.Register("lineinfile", func() tasks.Module { return diffModule{} })
			r.Diff = diff
		}
	}
	out, _, err := play(t, "a ansible_connection=local\n", pb, withDiffy(true))
	if err != nil {
		t.Fatal(err)
	}
	want := "--- before: f\n+++ after: f\n@@ -1 +1 @@\n-a\n+b\n\nchanged: [a]\n"
	if !strings.Contains(out, want) || strings.Count(out, "+++ after") != 1 {
		t.Errorf("want the diff once, before the result line:\n%s", out)
	}
	if strings.Count(out, "[WARNING]: something to know") != 2 {
		t.Errorf("want the warning of each task:\n%s", out)
	}
	if !strings.Contains(out, "All assertions passed") {
		t.Errorf("the warnings are not in the registered result:\n%s", out)
	}
	out, _, err = play(t, "a ansible_connection=local\n", pb, withDiffy(false))
	if err != nil || strings.Contains(out, "+++ after") {
		t.Errorf("a diff without --diff:\n%s", out)
	}
}

// TestActionPluginFailsWhenItRuns: a task naming an action plugin that
// ships with the playbook loads and, in a run without ActionPlugins,
// fails when it runs, saying why; the tasks around it run.
func TestActionPluginFailsWhenItRuns(t *testing.T) {
	_, inv, p := loadTree(t, map[string]string{
		"hosts":                 "a ansible_connection=local\n",
		"pb.yml":                "- hosts: all\n  gather_facts: false\n  tasks:\n    - act: x=1\n      ignore_errors: true\n    - debug: msg=after\n",
		"action_plugins/act.py": "from ansible.plugins.action import ActionBase\n",
	})
	var out bytes.Buffer
	r := &provision.Runner{Inventory: inv, Modules: testModules(), Connections: transport.NewConnections().Add("ssh", downDialer{}).Add("local", local.Dialer{}), Events: report.Text(&out, false)}
	recap, err := r.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["a"]; s.Ignored != 1 || s.OK != 2 || !strings.Contains(out.String(), "act is an action plugin") || !strings.Contains(out.String(), "after") {
		t.Fatalf("recap %+v\n%s", *s, out.String())
	}
}

// TestLoopPause: loop_control.pause waits between items (not before the
// first or after the last).
func TestLoopPause(t *testing.T) {
	start := time.Now()
	out, recap, err := play(t, "a ansible_connection=local\n", `
- hosts: all
  gather_facts: false
  tasks:
    - debug: var=i
      loop: [1, 2, 3]
      loop_control:
        loop_var: i
        pause: 0.3
`, nil)
	took := time.Since(start)
	if err != nil || recap.Stats["a"].OK != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	if took < 600*time.Millisecond {
		t.Errorf("three items with pause 0.3 took %v, want at least 0.6s", took)
	}
}

// TestNoLogLoopLines: a no_log loop shows each item as (item=None) and
// then the task's censored result as a task's own line, which -v prints
// (as ansible-playbook 2.14 does: its callbacks get a censored copy that
// lost the item and the results).
func TestNoLogLoopLines(t *testing.T) {
	pb := `
- hosts: all
  gather_facts: false
  tasks:
    - command: echo {{ item }}
      loop: [s3cr3t]
      no_log: true
    - command: "false"
      loop: [s3cr3t]
      no_log: true
      ignore_errors: true
`
	const hidden = `{"censored": "the output has been hidden due to the fact that 'no_log: true' was specified for this result", "changed": true}`
	for v, want := range map[int]string{
		0: "changed: [h1] => (item=None)\nchanged: [h1]\n",
		1: "changed: [h1] => (item=None) => " + hidden + "\nchanged: [h1] => " + hidden + "\n",
	} {
		var b bytes.Buffer
		_, _, err := play(t, "h1 ansible_connection=local\n", pb, func(r *provision.Runner) {
			r.Verbosity = v
			r.Events = report.TextVerbose(&b, false, v)
		})
		if err != nil {
			t.Fatal(err)
		}
		out := b.String()
		fatal := "failed: [h1] (item=None) => " + hidden + "\nfatal: [h1]: FAILED! => " + hidden + "\n...ignoring\n"
		if !strings.Contains(out, want) || !strings.Contains(out, fatal) || strings.Contains(out, "s3cr3t") {
			t.Errorf("-v×%d: want %q and %q in:\n%s", v, want, fatal, out)
		}
	}
}
