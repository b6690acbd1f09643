package agents_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
)

// Secrets reach neither the events nor the ledger in any of the forms a
// deploy can leak them: a become password written as a template (leaked
// rendered), a bundle var marked secret: true, an operator var whose name
// says it is a password (db_pw).
func TestRenderedAndMarkedSecretsRedacted(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	f.inv.Host("h1").SetVar("vault_pw", "R3nderedPw")
	f.inv.Host("h1").SetVar("ansible_become_password", "{{ vault_pw }}")
	f.write(t, "agent.yaml", fmt.Sprintf(`name: demo
version: "1"
port: %d
files:
  - {src: agent.bin, dest: %s/opt/agent, mode: "0755"}
playbook: deploy.yml
vars:
  root: %s
  api_key: {value: Bundl3Key, secret: true}
`, f.port, f.root, f.root))
	f.write(t, "deploy.yml", `- hosts: all
  gather_facts: false
  tasks:
    - debug: msg="{{ api_key }}"
    - fail: msg="no to {{ ansible_become_password }}, {{ api_key }}, {{ db_pw }}"
`)
	var events []string
	rep, err := f.deployer(t, func(o *agents.Options) {
		o.ExtraVars = map[string]any{"db_pw": "Op3ratorPw"}
		o.Events = func(e agents.Event) {
			if e.Task != nil {
				events = append(events, fmt.Sprintf("%s|%v|%s", e.Task.Msg, e.Task.Item, e.Task.Diff))
			}
		}
	}).Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, ds, _ := f.st.History(ctx, "h1", 1)
	for what, text := range map[string]string{"events": strings.Join(events, "\n"), "report": rep.Hosts[0].Error, "ledger": ds[0].Error} {
		for _, s := range []string{"R3nderedPw", "Bundl3Key", "Op3ratorPw"} {
			if strings.Contains(text, s) {
				t.Errorf("%s leak %s:\n%s", what, s, text)
			}
		}
		if what != "events" && !strings.Contains(text, "no to ********, ********, ********") {
			t.Errorf("%s: %q, want the failure with its secrets blanked", what, text)
		}
	}
}
