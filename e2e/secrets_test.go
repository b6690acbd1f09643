//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// plantedSecrets are values a run holds that must never show: the become
// password (reached through a template), a no_log shell task's text and
// output, a bundle var marked secret and an operator var named like a
// password.
var plantedSecrets = []string{"ops-secret", "Pl4nted-sh3ll-text", "Pl4nted-no-log-out", "Pl4nted-bundle-key", "Pl4nted-db-pw"}

// TestSecretsStayHidden greps everything a run leaves for planted
// secrets: the process list of the host while a no_log shell task runs,
// tender play's output with -vvvv and with --json, a failing deploy's
// output, `agent history` and the ledger's own files.
func TestSecretsStayHidden(t *testing.T) {
	hs := fl.own(t, "nopy5")
	inv := hs.inventory(t, "ops", "ops_pw=ops-secret\nansible_become_password={{ ops_pw }}\n")
	pb := writePlaybook(t, `
- hosts: fleet
  gather_facts: false
  become: true
  tasks:
    - shell: "sleep 3; echo Pl4nted-sh3ll-text"
      no_log: true
    - command: echo Pl4nted-no-log-out
      no_log: true
    - fail: msg="Pl4nted-no-log-out"
      no_log: true
      ignore_errors: true
`)
	// The host's process list, sampled while the plays run.
	var mu sync.Mutex
	var ps strings.Builder
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			out, _ := exec.Command("docker", "exec", hs.host("nopy5").container, "ps", "-eo", "args").CombinedOutput()
			mu.Lock()
			ps.Write(out)
			mu.Unlock()
		}
	}()
	outV, codeV := hs.play(t, inv, pb, "-vvvv")
	outJ, codeJ := hs.play(t, inv, pb, "--json")
	close(stop)
	wg.Wait()
	if codeV != 0 || codeJ != 0 {
		t.Fatalf("exit %d / %d\n%s\n%s", codeV, codeJ, outV, outJ)
	}
	if !strings.Contains(ps.String(), "sleep 3") {
		t.Fatalf("the sampler never saw the shell task run:\n%s", ps.String())
	}

	// A deploy that fails with the secrets in its message.
	bundle := t.TempDir()
	files := map[string]string{
		"agent.bin": "x",
		"agent.yaml": `name: secretive
version: "1"
health: "true"
files:
  - {src: agent.bin, dest: /opt/secretive/agent.bin, mode: "0644"}
playbook: deploy.yml
vars:
  api_key: {value: Pl4nted-bundle-key, secret: true}
`,
		"deploy.yml": `- hosts: all
  gather_facts: false
  tasks:
    - fail: msg="refused {{ api_key }} {{ db_pw }} {{ ansible_become_password }}"
`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(bundle, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stateDir := t.TempDir()
	state := filepath.Join(stateDir, "ledger.db")
	outD, codeD := hs.agentRun(t, inv, state, bundle, "deploy", "-e", "db_pw=Pl4nted-db-pw")
	if codeD == 0 || !strings.Contains(outD, "refused ********") {
		t.Fatalf("the deploy should fail with its secrets blanked: exit %d\n%s", codeD, outD)
	}
	outH, _ := hs.agentRun(t, inv, state, bundle, "history")
	var ledger strings.Builder
	ents, _ := os.ReadDir(stateDir)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(stateDir, e.Name()))
		ledger.Write(b)
	}
	if !strings.Contains(ledger.String(), "refused ********") {
		t.Fatalf("the ledger does not hold the failure")
	}
	for what, text := range map[string]string{"host ps": ps.String(), "play -vvvv": outV, "play --json": outJ,
		"agent deploy": outD, "agent history": outH, "ledger files": ledger.String()} {
		for _, s := range plantedSecrets {
			// A command task's own argv (echo Pl4nted-no-log-out) is
			// the process's, which ps shows while it lives, under any
			// tool: the sampler catches it now and then. What tender
			// hides from ps is the rest: a shell task's text, the
			// become password.
			if what == "host ps" && s == "Pl4nted-no-log-out" {
				continue
			}
			if strings.Contains(text, s) {
				t.Errorf("%s shows the planted secret %q", what, s)
			}
		}
	}
}
