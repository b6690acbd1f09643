package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
)

var (
	longOption = regexp.MustCompile(`--[a-z][a-z_-]*`)
	docOption  = regexp.MustCompile("`(--[a-z][a-z_-]*)`")
)

// docSections reads docs/COMPATIBILITY.md: per "## " heading, the table
// rows' options, and which of them are marked supported ("yes" in the
// second column).
func docSections(t *testing.T) map[string]map[string]bool {
	t.Helper()
	data, err := os.ReadFile("../../docs/COMPATIBILITY.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	var cur map[string]bool
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			cur = map[string]bool{}
			out[strings.Fields(h)[0]] = cur
			continue
		}
		cells := strings.Split(line, "|")
		if cur == nil || len(cells) < 4 {
			continue
		}
		yes := strings.HasPrefix(strings.TrimSpace(cells[2]), "yes")
		for _, m := range docOption.FindAllStringSubmatch(cells[1], -1) {
			cur[m[1]] = yes
		}
	}
	return out
}

// helpOptions are the long options a recorded --help lists.
func helpOptions(t *testing.T, names ...string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, n := range names {
		files, _ := filepath.Glob(filepath.Join("testdata/compat", n+".help"))
		if len(files) == 0 {
			t.Fatalf("no recorded help for %s: run testdata/compat/gen.sh", n)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range longOption.FindAllString(string(data), -1) {
				out[o] = true
			}
		}
	}
	return out
}

// commandFlags are the long flag names of tender's command path (such as
// "play", or "vault encrypt"), with "--" before them.
func commandFlags(t *testing.T, path ...string) map[string]bool {
	t.Helper()
	app := newApp(os.Stdout, os.Stderr)
	cmds := app.Commands
	var cmd *cli.Command
	for _, p := range path {
		if cmd = findCommand(cmds, p); cmd == nil {
			t.Fatalf("tender has no command %v", path)
		}
		cmds = cmd.Subcommands
	}
	out := map[string]bool{"--help": true}
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if len(n) > 1 {
				out["--"+n] = true
			}
		}
	}
	return out
}

// TestCompatibilityDocCoversAnsible: every option of ansible-playbook,
// ansible and ansible-vault 2.14 has its row in docs/COMPATIBILITY.md,
// and every one marked supported is a flag of the tender command that
// stands for it.
func TestCompatibilityDocCoversAnsible(t *testing.T) {
	doc := docSections(t)
	playbook, adhoc, vaultDoc := doc["ansible-playbook"], doc["ansible"], doc["ansible-vault"]
	if len(playbook) < 30 || len(adhoc) < 5 || len(vaultDoc) < 10 {
		t.Fatalf("sections not found: %d %d %d", len(playbook), len(adhoc), len(vaultDoc))
	}
	for o := range helpOptions(t, "ansible-playbook") {
		if _, ok := playbook[o]; !ok {
			t.Errorf("ansible-playbook's %s is not in docs/COMPATIBILITY.md", o)
		}
	}
	for o := range helpOptions(t, "ansible") {
		_, inPlaybook := playbook[o]
		if _, ok := adhoc[o]; !ok && !inPlaybook {
			t.Errorf("ansible's %s is not in docs/COMPATIBILITY.md", o)
		}
	}
	for o := range helpOptions(t, "ansible-vault-*") {
		if _, ok := vaultDoc[o]; !ok {
			t.Errorf("ansible-vault's %s is not in docs/COMPATIBILITY.md", o)
		}
	}
	play, run := commandFlags(t, "play"), commandFlags(t, "run")
	for o, yes := range playbook {
		if yes && !play[o] {
			t.Errorf("docs/COMPATIBILITY.md says tender play takes %s; it does not", o)
		}
		if yes && helpOptions(t, "ansible")[o] && !run[o] && adhoc[o] != yes {
			t.Errorf("docs/COMPATIBILITY.md says tender run takes %s (as ansible-playbook's); it does not", o)
		}
	}
	for o, yes := range adhoc {
		if yes && !run[o] {
			t.Errorf("docs/COMPATIBILITY.md says tender run takes %s; it does not", o)
		}
	}
	vaultFlagsAll := map[string]bool{}
	for _, sub := range []string{"create", "edit", "view", "decrypt", "encrypt", "rekey", "encrypt_string"} {
		for f := range commandFlags(t, "vault", sub) {
			vaultFlagsAll[f] = true
		}
	}
	for o, yes := range vaultDoc {
		if yes && !vaultFlagsAll[o] {
			t.Errorf("docs/COMPATIBILITY.md says tender vault takes %s; no subcommand does", o)
		}
	}
}

// TestCompatibilityDocSettings: each ansible.cfg setting docs/COMPATIBILITY.md
// says tender applies is one of Ansible's (its environment variable is
// the setting's) and one tender's play marks applied, so the table and
// the warning about settings tender does not apply agree.
func TestCompatibilityDocSettings(t *testing.T) {
	data, err := os.ReadFile("../../docs/COMPATIBILITY.md")
	if err != nil {
		t.Fatal(err)
	}
	byEnv, byIni := map[string]string{}, map[string]string{}
	for _, s := range config.Settings() {
		for _, e := range s.Env {
			byEnv[e] = s.Name
		}
		for _, i := range s.Ini {
			byIni["["+i.Section+"] "+i.Key] = s.Name
		}
	}
	sshOpts, _ := config.PluginOptions("connection", "ssh")
	cbOpts, _ := config.PluginOptions("callback", "default")
	sshOpts = append(sshOpts, cbOpts...)
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`[") {
			continue
		}
		env := strings.Trim(strings.TrimSpace(cells[2]), "`")
		n++
		name, base := byEnv[env]
		if env == "" {
			// A setting no environment variable sets: known by its key.
			name, base = byIni[strings.Trim(strings.TrimSpace(cells[1]), "`")]
		}
		if !base {
			found := false
			for _, o := range sshOpts {
				found = found || slices.Contains(o.Env, env)
			}
			if !found {
				t.Errorf("%s in docs/COMPATIBILITY.md is no setting of ansible-core 2.14", env)
			}
			continue
		}
		yes := strings.HasPrefix(strings.TrimSpace(cells[3]), "yes")
		_, byValue := appliedValues[name]
		if yes && !appliedSettings[name] && !byValue {
			t.Errorf("docs/COMPATIBILITY.md says tender applies %s (%s); appliedSettings does not have it", name, env)
		}
	}
	if n < 25 {
		t.Fatalf("only %d settings rows", n)
	}
}
