package provision_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/transporttest"
)

// warnDialer is the fake transport with a transport.Warner that warns
// about every target whose common args say "warn=MSG".
type warnDialer struct {
	*transporttest.Fake
	mu    sync.Mutex
	asked map[string]int
}

// Params: the fake reads ssh's variables, its common args among them.
func (d *warnDialer) Params() transport.ConnParams {
	p := transport.DefaultParams
	p.PluginOptions = []string{"ssh_common_args"}
	return p
}

func (d *warnDialer) Warnings(t transport.Target) []string {
	d.mu.Lock()
	d.asked[t.Name]++
	d.mu.Unlock()
	common, _ := t.Options["ssh_common_args"].(string)
	if msg, ok := strings.CutPrefix(common, "warn="); ok {
		return []string{msg}
	}
	return nil
}

// TestDialerWarningsOncePerRun: what the Dialer warns about reaching the
// hosts is reported before they are reached, once per run, one event
// naming every host a warning concerns, and hosts reached only later (a
// delegate) are warned about when they are.
func TestDialerWarningsOncePerRun(t *testing.T) {
	d := &warnDialer{Fake: transporttest.NewFake(t), asked: map[string]int{}}
	var warnings []provision.Event
	out, _, err := play(t, `
a ansible_ssh_common_args=warn=insecure
b ansible_ssh_common_args=warn=insecure
c
e ansible_ssh_common_args=warn=other
`, `
- hosts: a,b,c
  gather_facts: false
  tasks:
    - command: echo one
- hosts: a,b,c
  gather_facts: false
  tasks:
    - command: echo two
    - command: echo three
      delegate_to: e
      run_once: true
`, func(r *provision.Runner) {
		withSSH(r, d)
		text := r.Events
		r.Events = func(e provision.Event) {
			if e.Kind == provision.Warning {
				warnings = append(warnings, e)
			}
			text(e)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 2 {
		t.Fatalf("want 2 warnings, got %+v\n%s", warnings, out)
	}
	if w := warnings[0]; w.Msg != "a, b: insecure" || !slices.Equal(w.Hosts, []string{"a", "b"}) || w.Play != "a,b,c" {
		t.Errorf("first warning: %+v", w)
	}
	if w := warnings[1]; w.Msg != "e: other" || w.Host != "e" {
		t.Errorf("delegate's warning: %+v", w)
	}
	if i, j := strings.Index(out, "[WARNING]: a, b: insecure"), strings.Index(out, "TASK [command]"); i < 0 || i > j {
		t.Errorf("the warning should come before the first task:\n%s", out)
	}
	for h, n := range d.asked {
		if n > 2 {
			t.Errorf("%s: asked %d times, want at most 2 (the play's check and the connect)", h, n)
		}
	}
}
