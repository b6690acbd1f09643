package agents

import (
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks/expr"
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

// secrets lists the secret values a host's deploy could leak into error
// text: its connection and become passwords, the bundle's vars marked
// secret, and operator vars whose names say they are secret; each as
// written and as rendered in the host's variables (a password written
// "{{ vault_pw }}" leaks rendered).
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

// redact blanks every secret in text.
func redact(text string, secrets []string) string {
	for _, s := range secrets {
		text = strings.ReplaceAll(text, s, "********")
	}
	return text
}
