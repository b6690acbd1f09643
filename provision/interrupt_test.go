package provision_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// interruptRun starts pb on two local hosts and calls interrupt when the
// first task has started; it returns the output, the recap and Run's error.
func interruptRun(t *testing.T, pb string, drain chan struct{}, interrupt func(cancel context.CancelFunc)) (string, *provision.Recap, error) {
	t.Helper()
	inv, p := loadPlay(t, "a ansible_connection=local\nb ansible_connection=local\n", pb)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	text := report.Text(&out, false)
	started := make(chan struct{})
	r := &provision.Runner{Inventory: inv, Modules: testModules(), Connections: transport.NewConnections().Add("ssh", local.Dialer{}).Add("local", local.Dialer{}), Drain: drain}
	r.Events = func(e provision.Event) {
		text(e)
		if e.Kind == provision.TaskStart && e.Task != "Gathering Facts" {
			select {
			case <-started:
			default:
				close(started)
			}
		}
	}
	go func() {
		<-started
		time.Sleep(200 * time.Millisecond)
		interrupt(cancel)
	}()
	type result struct {
		recap *provision.Recap
		err   error
	}
	done := make(chan result, 1)
	go func() { rc, err := r.Run(ctx, p); done <- result{rc, err} }()
	select {
	case res := <-done:
		return out.String(), res.recap, res.err
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not stop after the interrupt")
	}
	return "", nil, nil
}

// The first Ctrl-C (Drain) lets the running task finish on every host and
// starts no other task.
func TestDrainLetsRunningTasksFinish(t *testing.T) {
	drain := make(chan struct{})
	out, recap, err := interruptRun(t, `
- hosts: all
  gather_facts: false
  tasks:
    - command: sleep 1
    - debug: msg=after
  handlers:
    - debug: msg=handler
`, drain, func(context.CancelFunc) { close(drain) })
	if !errors.Is(err, provision.ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	for _, h := range []string{"a", "b"} {
		if s := recap.Stats[h]; s == nil || s.Changed != 1 || s.OK != 1 || s.Failed != 0 {
			t.Errorf("%s: %+v, want the sleep finished and nothing after it", h, s)
		}
	}
	if strings.Contains(out, "after") {
		t.Errorf("a task started after the interrupt:\n%s", out)
	}
}

// Cancelling the run (a second Ctrl-C) stops a template that would take
// long to evaluate, and a running command, at once.
func TestCancelStopsTemplatesAndCommands(t *testing.T) {
	for name, task := range map[string]string{
		"template": `debug: msg="{% for i in range(2000) %}{% for j in range(2000) %}{{ i }}{% endfor %}{% endfor %}"`,
		"command":  `command: sleep 30`,
	} {
		out, _, err := interruptRun(t, "- hosts: all\n  gather_facts: false\n  tasks:\n    - "+task+"\n", nil,
			func(cancel context.CancelFunc) { cancel() })
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", name, err)
		}
		if strings.Count(out, "interrupted") != 2 {
			t.Errorf("%s: want both hosts' task stopped as interrupted:\n%s", name, out)
		}
	}
}
