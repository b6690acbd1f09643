package provision

import (
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/playbooks/expr"
)

// connectionVars are the connection variables Ansible gives every task
// that its variables leave unset, from the connection the task will use
// (its play context): ansible_host and ansible_ssh_host (the address:
// ansible_ssh_host's value, else the inventory hostname, 127.0.0.1 for
// the implicit localhost), ansible_connection (the connection keyword in
// force, else the default type, which smart picks) and ansible_user (the remote_user
// keyword or -u, when set). They sit below every other variable, and
// hostvars does not show them. A delegated task gets none: its
// connection is the delegate's.
func (pr *playRun) connectionVars(h *hostRun, t *playbooks.Task, scope expr.Scope) map[string]any {
	conns := []string{pr.rn.r.Defaults.Connection}
	users := []string{pr.rn.r.Defaults.RemoteUser}
	for _, kw := range pr.keywordLevels(t) {
		if kw.DelegateTo != "" {
			return nil
		}
		if kw.Connection != "" {
			conns = append(conns, kw.Connection)
		}
		if kw.RemoteUser != "" {
			users = append(users, kw.RemoteUser)
		}
	}
	m := map[string]any{}
	var addr any = h.names.value(h.name)
	if h.inv != nil && h.inv.Implicit {
		addr = "127.0.0.1"
	}
	if v, ok, err := scope.Lookup("ansible_ssh_host"); err == nil && ok && v != nil {
		addr = v
	}
	m["ansible_host"], m["ansible_ssh_host"] = addr, addr
	types := pr.rn.r.Connections
	m["ansible_connection"] = types.Pick("")
	if c := innermostValue(conns, scope); c != nil && types.Pick(expr.Str(c)) == expr.Str(c) {
		m["ansible_connection"] = c
	}
	if u := innermostValue(users, scope); u != nil {
		m["ansible_user"] = u
	}
	return m
}

// innermostValue is the innermost of a keyword's values (outermost
// first) that is set, rendered in scope, keeping what the rendering gave
// (a value from a host stays marked); nil when none is set or it cannot
// be rendered.
func innermostValue(vals []string, scope expr.Scope) any {
	for i := len(vals) - 1; i >= 0; i-- {
		v := vals[i]
		if v == "" {
			continue
		}
		r, err := expr.Render(v, scope)
		if err != nil {
			return nil
		}
		if !expr.IsOmit(r) && expr.Str(r) != "" {
			return r
		}
	}
	return nil
}
