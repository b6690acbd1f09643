//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
)

// TestAgentDefaultsOnTheFleet deploys with the shortest program: no
// connections given (ssh with OpenSSH's accept-new policy against
// ~/.ssh/known_hosts, which it records the host in), a typed target
// with the key in memory; then the need-run hook makes an up-to-date
// host redeploy, ForceRun forces one call and RunVars gives one call its
// own variables.
func TestAgentDefaultsOnTheFleet(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	t.Setenv("HOME", home)
	hs := fl.own(t, "py4")
	v1, _ := helloBundles(t)
	b, err := agents.LoadBundle(v1, agents.LoadOptions{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	need := ""
	d, err := agents.New(st, b, nil, agents.Options{NeedRun: func(ctx context.Context, host string) (bool, string, error) {
		return need != "", need, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	pem, _ := os.ReadFile(fl.key)
	if err := d.AddTarget(provision.Target{Name: "py4", Address: "127.0.0.1", Port: hs.host("py4").port, User: "root", Key: transport.Key{PEM: pem}}); err != nil {
		t.Fatal(err)
	}
	step := func(what, want string, opts ...agents.RunOption) {
		t.Helper()
		rep, err := d.Deploy(ctx, opts...)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		h := rep.Hosts[0]
		if got := string(h.Decision.Action) + "/" + string(h.Outcome); got != want {
			t.Fatalf("%s: %s (%s), want %s: %s", what, got, h.Decision.Reason, want, h.Error)
		}
	}
	step("first deploy", "new/deployed")
	known, err := os.ReadFile(filepath.Join(home, ".ssh", "known_hosts"))
	if err != nil || !strings.HasPrefix(string(known), fmt.Sprintf("[127.0.0.1]:%d ", hs.host("py4").port)) {
		t.Fatalf("~/.ssh/known_hosts: %q %v", known, err)
	}
	step("up to date", "skip/skipped")
	need = "the agent's config was edited by hand"
	step("need-run", "repair/deployed")
	need = ""
	step("forced", "force/deployed", agents.ForceRun())
	step("up to date again", "skip/skipped")
	// A call's own variables: the agent runs as another user this once.
	step("forced with vars", "force/deployed", agents.ForceRun(), agents.RunVars(map[string]any{"hello_user": "agent2"}))
	if got := hs.sh(t, "py4", "grep USER= /etc/default/hello; id -u agent2 >/dev/null && echo agent2 exists"); got != "USER=agent2\nagent2 exists\n" {
		t.Fatalf("after RunVars: %q", got)
	}
	step("forced without", "force/deployed", agents.ForceRun())
	if got := hs.sh(t, "py4", "grep USER= /etc/default/hello"); got != "USER=hello\n" {
		t.Fatalf("after a call without RunVars: %q", got)
	}
}
