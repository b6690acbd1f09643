package agents

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/vault"
)

// secretVars takes the bundle's vars as written: a var whose value is a
// mapping of exactly value and secret (a boolean true) stands for its
// value and is secret. It returns the vars with those unwrapped and the
// names of the secret ones, sorted.
func secretVars(vars map[string]any) (map[string]any, []string) {
	var names []string
	for k, v := range vars {
		m, ok := v.(map[string]any)
		if !ok || len(m) != 2 {
			continue
		}
		val, hasValue := m["value"]
		if s, isBool := m["secret"].(bool); hasValue && isBool && s {
			vars[k] = val
			names = append(names, k)
		}
	}
	sort.Strings(names)
	return vars, names
}

// connectionSecrets are the variables whose values never reach the ledger.
var connectionSecrets = []string{"ansible_password", "ansible_ssh_pass", "ansible_ssh_password",
	"ansible_become_password", "ansible_become_pass", "ansible_sudo_pass", "ansible_sudo_password"}

// secretWords mark an operator var (-e) as secret by its name.
var secretWords = []string{"pass", "pw", "secret", "token", "key", "credential", "auth"}

// redactor blanks a host's secrets in the text a deploy keeps (events,
// failure text, the ledger's rows): the values secrets lists, every
// plaintext the vault opened (vault), and what the host's no_log tasks
// handled (noLog, learned as the run goes). All of them are replaced
// together, longest first, so a secret that holds another is blanked
// whole.
type redactor struct {
	static []string
	vault  *vault.Censor
	noLog  *vault.Censor
}

// redactor returns the redactor of a deploy on t, with an empty no_log
// censor for its run (provision.Runner.NoLogValues).
func (d *Deployer) redactor(t target) *redactor {
	var cs *vault.Censor
	if d.opts.Vault != nil {
		cs = d.opts.Vault.Censor
	}
	return &redactor{static: d.secrets(t), vault: cs, noLog: &vault.Censor{}}
}

// String blanks every secret in text.
func (r *redactor) String(text string) string {
	all := append(append(slices.Clone(r.static), r.vault.Values()...), r.noLog.Values()...)
	sort.SliceStable(all, func(i, j int) bool { return len(all[i]) > len(all[j]) })
	return redact(text, all)
}

// secrets lists the secret values a host's deploy could leak into error
// text, known by their names: its connection and become passwords, the
// bundle's vars marked secret, and operator vars whose names say they
// are secret; each as written and as rendered in the host's variables
// (a password written "{{ vault_pw }}" leaks rendered). Values that are
// secret for where they came from (the vault, no_log tasks) are the
// redactor's.
func (d *Deployer) secrets(t target) []string {
	hostVars, _ := t.inv.HostVars(t.name)
	scope := expr.NewVars(d.bundle.Vars, hostVars, d.opts.ExtraVars)
	seen := map[string]bool{}
	var out []string
	add := func(v any) {
		s, ok := v.(string)
		if !ok || s == "" || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
		if r, err := expr.Render(s, scope); err == nil {
			if rs, ok := r.(string); ok && rs != "" && !seen[rs] {
				seen[rs] = true
				out = append(out, rs)
			}
		}
	}
	for _, k := range connectionSecrets {
		for _, layer := range []map[string]any{d.opts.ExtraVars, hostVars, d.bundle.Vars} {
			add(layer[k])
		}
	}
	for _, k := range d.bundle.Secret {
		add(d.bundle.Vars[k])
	}
	for _, k := range pydict.Keys(d.opts.ExtraVars) {
		lk := strings.ToLower(k)
		for _, w := range secretWords {
			if strings.Contains(lk, w) {
				add(d.opts.ExtraVars[k])
				break
			}
		}
	}
	// Longest first, so a secret that contains another is blanked whole.
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// redact blanks every secret in text, in the order given.
func redact(text string, secrets []string) string {
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			text = strings.ReplaceAll(text, s, vault.Mask)
		}
	}
	return text
}

// redactEvent blanks a host's secrets in a playbook event before it
// leaves the Deployer: its results and arguments are dropped (they may
// hold what no_log did not hide), its text fields (a task or play name
// may be a template too) are redacted.
func redactEvent(e *provision.Event, r *redactor) {
	e.Result, e.Args = nil, nil
	e.Msg, e.Diff, e.Task, e.Play = r.String(e.Msg), r.String(e.Diff), r.String(e.Task), r.String(e.Play)
	if s, ok := e.Item.(string); ok {
		e.Item = r.String(s)
	} else if e.Item != nil {
		e.Item = r.String(fmt.Sprint(e.Item))
	}
}
