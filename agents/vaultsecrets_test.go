package agents_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/vault"
)

// vaultInline is plain encrypted with keys, as a YAML !vault value
// indented by indent spaces.
func vaultInline(t *testing.T, keys *vault.Keyring, plain string, indent int) string {
	t.Helper()
	b, err := keys.Encrypt([]byte(plain), "")
	if err != nil {
		t.Fatal(err)
	}
	pad := "\n" + strings.Repeat(" ", indent)
	return "!vault |" + pad + strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", pad)
}

// Values are secret for where they came from, whatever their names: a
// vaulted group_vars file, a !vault host var, a vaulted -e var (dbconn),
// a !vault bundle var, and what no_log tasks handled (a command's
// arguments and output, a set_fact's value). A failing task prints them
// all, in its message and its name; none reaches the events, the report,
// the ledger's rows or its files, and the failure is still told.
func TestVaultAndNoLogValuesNeverReachTheLedger(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "h1")
	keys := &vault.Keyring{Censor: &vault.Censor{}}
	keys.Add("", []byte("pw-1"))
	invDir := t.TempDir()
	mk := func(name, data string) {
		t.Helper()
		p := filepath.Join(invDir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	groupFile, err := keys.Encrypt([]byte("db_url: GroupVault-s3cret\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	mk("hosts", "h1 ansible_connection=local\n")
	mk("group_vars/all.yml", string(groupFile))
	mk("host_vars/h1.yml", "inline_tok: "+vaultInline(t, keys, "HostInline-s3cret", 2)+"\n")
	inv, err := inventory.LoadWith(inventory.Options{Decrypt: keys.DecryptFunc()}, filepath.Join(invDir, "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml11.NewDecoder()
	dec.Decrypt = keys.DecryptFunc()
	extra, err := dec.Vars([]byte("dbconn: "+vaultInline(t, keys, "ExtraVault-s3cret", 2)+"\n"), "-e")
	if err != nil {
		t.Fatal(err)
	}
	f.write(t, "agent.yaml", fmt.Sprintf(`name: demo
version: "1"
port: %d
files:
  - {src: agent.bin, dest: %s/opt/agent, mode: "0755"}
playbook: deploy.yml
vars:
  root: %s
  bundle_tok: %s
`, f.port, f.root, f.root, vaultInline(t, keys, "BundleVault-s3cret", 4)))
	f.write(t, "deploy.yml", `- hosts: all
  gather_facts: false
  tasks:
    - debug: msg="{{ db_url }} {{ inline_tok }} {{ bundle_tok }}"
    - command: echo NoLogArg-s3cret
      no_log: true
      register: out
    - set_fact: tmp_token=NoLogFact-s3cret
      no_log: true
    - name: "connect {{ dbconn }}"
      fail: msg="failed with {{ dbconn }} {{ db_url }} {{ inline_tok }} {{ bundle_tok }} {{ out.stdout }} {{ tmp_token }}"
`)
	b, err := agents.LoadBundle(f.dir, agents.LoadOptions{Modules: builtin.Registry(), Vault: keys})
	if err != nil {
		t.Fatal(err)
	}
	ledger := filepath.Join(t.TempDir(), "ledger.db")
	st, err := store.Open(ctx, ledger)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	d, err := agents.New(st, b, inv, agents.Options{Modules: builtin.Registry(), ExtraVars: extra,
		Connections: transport.NewConnections().Add("local", f.dialer),
		Events: func(e agents.Event) {
			if e.Task != nil {
				events = append(events, fmt.Sprintf("%s|%s|%s|%v|%s|%v|%v", e.Task.Play, e.Task.Task, e.Task.Msg, e.Task.Item, e.Task.Diff, e.Task.Result, e.Task.Args))
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, ds, err := st.History(ctx, "h1", 1)
	if err != nil || len(ds) != 1 {
		t.Fatalf("history: %v %v", ds, err)
	}
	st.Close()
	files := ""
	matches, _ := filepath.Glob(ledger + "*")
	for _, m := range matches {
		b, _ := os.ReadFile(m)
		files += string(b)
	}
	secrets := []string{"GroupVault-s3cret", "HostInline-s3cret", "ExtraVault-s3cret", "BundleVault-s3cret", "NoLogArg-s3cret", "NoLogFact-s3cret"}
	all := strings.Join(events, "\n")
	if !strings.Contains(all, "******** ******** ********") {
		t.Errorf("the debug task's vault values were not blanked in its event:\n%s", all)
	}
	want := `task "connect {{ dbconn }}": failed: failed with ******** ******** ******** ******** ******** ********`
	for what, text := range map[string]string{"events": all, "report": rep.Hosts[0].Error, "ledger error": ds[0].Error,
		"ledger reason": ds[0].Reason, "ledger files": files} {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s leak %s:\n%s", what, s, text)
			}
		}
		if (what == "report" || what == "ledger error") && text != want {
			t.Errorf("%s: %q, want %q", what, text, want)
		}
	}
}
