package provision

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/suggest"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/transport"
)

// Target is one host as a control plane knows it: where it is, how to
// log in, how to become root, and its other variables. Runner.AddTarget,
// the agents Deployer and Call take it; HostVars turns it into Ansible's
// variables, in this one place, and a private key held in memory goes
// to the connection beside them, never into a variable.
type Target struct {
	// Name is the inventory hostname: events, results and the ledger
	// name the host by it. Required.
	Name string
	// Address is where to connect (ansible_host); empty means Name.
	Address string
	// Port is the port to connect to (ansible_port); 0 means the
	// connection type's default (22 for ssh).
	Port int
	// User logs in (ansible_user); empty means the connection type's
	// default (ssh: its config's, else the controller's user).
	User string
	// Password logs in (ansible_password) when no key is taken.
	Password string
	// Key is a private key held in memory (its PEM, or a Signer),
	// offered before any key file. Its zero value offers none.
	Key transport.Key
	// KeyFile is a private key file on the controller
	// (ansible_ssh_private_key_file).
	KeyFile string
	// Become runs tasks as another user (ansible_become), by
	// BecomeMethod (ansible_become_method, sudo when empty) as BecomeUser
	// (ansible_become_user, root when empty), with BecomePassword
	// (ansible_become_password) when the method asks for one.
	Become                                   bool
	BecomeMethod, BecomeUser, BecomePassword string
	// Connection is the connection type (ansible_connection): ssh when
	// empty, or local, docker, or any type the run registers.
	Connection string
	// Vars are the host's other variables. An ansible_* name here must
	// be one tender knows (a setting's or a connection's variable, see
	// HostVars), and must not repeat one of the fields above.
	Vars map[string]any
}

// HasKey reports whether t holds a private key in memory.
func (t Target) HasKey() bool { return len(t.Key.PEM) > 0 || t.Key.Signer != nil }

// HostVars returns t's inventory variables: Vars, then each field that is
// set under its Ansible name. conns are the connection types the run
// registers (nil: DefaultConnections' types are not known, only
// Ansible's own names). It is an error when Name is empty, when Vars
// gives an ansible_* name that neither Ansible's settings and plugins
// nor conns' types read (a misspelt name would otherwise become a
// variable nobody reads), or when Vars repeats a field.
func (t Target) HostVars(conns *transport.Connections) (map[string]any, error) {
	if strings.TrimSpace(t.Name) == "" {
		return nil, errors.New("target has no name")
	}
	if t.Port < 0 || t.Port > 65535 {
		return nil, fmt.Errorf("target %s: port %d is out of range", t.Name, t.Port)
	}
	known := knownHostVars(conns)
	var bad []string
	for _, k := range slices.Sorted(maps.Keys(t.Vars)) {
		if strings.HasPrefix(k, "ansible_") && !known[k] && !interpreterVar(k) {
			bad = append(bad, fmt.Sprintf("%s%s", k, closestName(k, known)))
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("target %s: unknown variable %s", t.Name, strings.Join(bad, ", "))
	}
	out := maps.Clone(t.Vars)
	if out == nil {
		out = map[string]any{}
	}
	set := func(name string, v any, isSet bool) error {
		if !isSet {
			return nil
		}
		if _, dup := out[name]; dup {
			return fmt.Errorf("target %s: %s is given both as a field and in Vars", t.Name, name)
		}
		out[name] = v
		return nil
	}
	for _, f := range []struct {
		name  string
		v     any
		isSet bool
	}{
		{"ansible_host", t.Address, t.Address != ""},
		{"ansible_port", t.Port, t.Port != 0},
		{"ansible_user", t.User, t.User != ""},
		{"ansible_password", t.Password, t.Password != ""},
		{"ansible_ssh_private_key_file", t.KeyFile, t.KeyFile != ""},
		{"ansible_connection", t.Connection, t.Connection != ""},
		{"ansible_become", true, t.Become},
		{"ansible_become_method", t.BecomeMethod, t.BecomeMethod != ""},
		{"ansible_become_user", t.BecomeUser, t.BecomeUser != ""},
		{"ansible_become_password", t.BecomePassword, t.BecomePassword != ""},
	} {
		if err := set(f.name, f.v, f.isSet); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// AddTarget adds t to the Runner's inventory (a new one when Inventory
// is nil): a host of its name already there gets t's variables over its
// own. t's key, if any, goes to Keys, for the host's connections.
func (r *Runner) AddTarget(t Target) error {
	vars, err := t.HostVars(r.Connections)
	if err != nil {
		return err
	}
	if r.Inventory == nil {
		r.Inventory = inventory.New()
	}
	h, err := r.Inventory.AddHost(t.Name)
	if err != nil {
		return err
	}
	for k, v := range vars {
		h.SetVar(k, v)
	}
	if t.HasKey() {
		if r.Keys == nil {
			r.Keys = map[string][]transport.Key{}
		}
		r.Keys[t.Name] = []transport.Key{t.Key}
	} else {
		delete(r.Keys, t.Name)
	}
	return nil
}

// otherHostVars are the ansible_* variables tender reads that no setting
// or plugin option of Ansible's names: the connection variables its play
// context maps, and the shell's.
var otherHostVars = []string{
	"ansible_connection", "ansible_become", "ansible_become_method", "ansible_remote_user",
	"ansible_shell_type", "ansible_shell_executable", "ansible_network_os",
}

// knownHostVars are the ansible_* names a Target's Vars may use.
func knownHostVars(conns *transport.Connections) map[string]bool {
	known := config.VarNames()
	for _, n := range otherHostVars {
		known[n] = true
	}
	p := transport.DefaultParams
	for _, l := range [][]string{p.Host, p.User, p.Port, p.Password, p.KeyFile} {
		for _, n := range l {
			known[n] = true
		}
	}
	for _, name := range conns.Names() {
		_, d, err := conns.Resolve(name)
		if err != nil {
			continue
		}
		p := transport.ParamsOf(d)
		for _, l := range [][]string{p.Host, p.User, p.Port, p.Password, p.KeyFile} {
			for _, n := range l {
				known[n] = true
			}
		}
		for _, o := range p.Options {
			for _, n := range o.Vars {
				known[n] = true
			}
		}
	}
	return known
}

// interpreterVar reports whether k is ansible_NAME_interpreter, which
// Ansible reads for a module in language NAME.
func interpreterVar(k string) bool {
	mid, ok := strings.CutSuffix(strings.TrimPrefix(k, "ansible_"), "_interpreter")
	return ok && mid != "" && !strings.Contains(mid, "_")
}

// closestName is a " (did you mean X?)" for the known name nearest k,
// or "" when none is near.
func closestName(k string, known map[string]bool) string {
	best, bestD := "", len(k)/4+1
	for _, n := range slices.Sorted(maps.Keys(known)) {
		if d := suggest.Distance(k, n); d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + strconv.Quote(best) + "?)"
}
