package transport

import (
	"fmt"
	"sort"
)

// Connections names the connection types a run may use, as Ansible's
// connection plugins are named: ansible_connection, the connection keyword
// and -c pick one of them by its name or one of its aliases. The program
// (or library user) that builds the engine fills it; the engine never
// imports a concrete transport.
//
// A Connections is filled before use and only read afterwards, so it is
// safe for concurrent use once built. The zero value is empty: every name
// is then unknown.
type Connections struct {
	dialers map[string]Dialer
	names   map[string]string // every name and alias -> its type's name
	def     string            // the default type; DefaultType when empty
	local   string            // the controller's own type; LocalType when empty
}

// Ansible's names for the connection types a run gives a role. A
// Connections may give the roles to other types (SetDefault, SetLocal).
const (
	// DefaultType is the type a host uses when nothing names one
	// (Ansible's DEFAULT_TRANSPORT).
	DefaultType = "ssh"
	// SmartType is Ansible's "smart", which picks the default type.
	SmartType = "smart"
	// LocalType runs tasks on the control machine itself: the implicit
	// localhost and delegate_to: localhost use it.
	LocalType = "local"
)

// SetDefault makes name the type a host uses when nothing names one,
// and the type "smart" picks. It returns c, so that calls chain.
func (c *Connections) SetDefault(name string) *Connections {
	c.def = name
	return c
}

// SetLocal makes name the type that runs tasks on the control machine
// (delegate_to: localhost). It returns c, so that calls chain.
func (c *Connections) SetLocal(name string) *Connections {
	c.local = name
	return c
}

// Pick returns the type name asks for: the default type for "" and
// "smart", else name itself (which may be an alias or unknown).
func (c *Connections) Pick(name string) string {
	if name != "" && name != SmartType {
		return name
	}
	if c != nil && c.def != "" {
		return c.def
	}
	return DefaultType
}

// Local returns the name of the type that runs tasks on the control
// machine.
func (c *Connections) Local() string {
	if c != nil && c.local != "" {
		return c.local
	}
	return LocalType
}

// IsLocal reports whether name (a type's name or alias) is the type that
// runs tasks on the control machine.
func (c *Connections) IsLocal(name string) bool {
	local := c.Local()
	if name == local {
		return true
	}
	canon := c.Canonical(name)
	return canon != "" && canon == c.Canonical(local)
}

// NewConnections returns an empty set of connection types.
func NewConnections() *Connections {
	return &Connections{dialers: map[string]Dialer{}, names: map[string]string{}}
}

// Add registers d as the connection type name, also reachable by aliases
// (as "smart" and "paramiko" reach ssh, or a collection's full name, such
// as community.docker.docker, reaches docker). It returns c, so that calls
// chain. A name or alias given twice panics: that is a wiring mistake of
// the program, not an input error.
func (c *Connections) Add(name string, d Dialer, aliases ...string) *Connections {
	if c.dialers == nil {
		c.dialers, c.names = map[string]Dialer{}, map[string]string{}
	}
	if d == nil {
		panic("transport: connection type " + name + " has no Dialer")
	}
	for _, n := range append([]string{name}, aliases...) {
		if _, dup := c.names[n]; dup {
			panic("transport: connection name " + n + " registered twice")
		}
		c.names[n] = name
	}
	c.dialers[name] = d
	return c
}

// Resolve returns the type that name (a type's name or one of its
// aliases) stands for, and its Dialer. An unknown name is an error that
// lists the known types.
func (c *Connections) Resolve(name string) (string, Dialer, error) {
	if c != nil {
		if canon, ok := c.names[name]; ok {
			return canon, c.dialers[canon], nil
		}
	}
	return "", nil, &UnknownConnectionError{Name: name, Known: c.Names()}
}

// Canonical returns the type that name stands for, or "" when it is
// unknown.
func (c *Connections) Canonical(name string) string {
	if c == nil {
		return ""
	}
	return c.names[name]
}

// Names returns the registered types' names, sorted, aliases left out.
func (c *Connections) Names() []string {
	if c == nil {
		return nil
	}
	out := make([]string, 0, len(c.dialers))
	for n := range c.dialers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// UnknownConnectionError is a connection type nobody registered.
type UnknownConnectionError struct {
	// Name is the name asked for.
	Name string
	// Known are the types that exist, sorted.
	Known []string
}

// Error returns the message the user sees, Ansible's.
func (e *UnknownConnectionError) Error() string {
	return fmt.Sprintf("the connection plugin '%s' was not found", e.Name)
}

// Params is an optional interface of a Dialer: which host variables its
// connection type reads, as an Ansible connection plugin's options name
// them. A Dialer without it reads ansible_host, ansible_port,
// ansible_user and ansible_password.
type Params interface {
	Params() ConnParams
}

// ConnParams are the variables a connection type reads. In each list the
// first variable that is set wins; a nil list is a field the type does
// not take (local's reads none).
type ConnParams struct {
	// Host are where Target.Host comes from (the inventory hostname when
	// none is set); User, Target.User (the remote_user keyword when none
	// is set); Port, Target.Port (the port keyword when none is set);
	// Password, Target.Password; KeyFile, Target.KeyFiles (the one key
	// file to offer).
	Host, User, Port, Password, KeyFile []string
	// Options fill Target.Options, by option name.
	Options []ConnOption
	// PluginOptions name options of Ansible's connection plugin of the
	// type's name that the type takes from wherever Ansible's
	// configuration sets them (its variables, the environment,
	// ansible.cfg, the command line): the engine reads each into
	// Target.Options as text, leaving it out when it is empty or at its
	// documented default. A type registered under a name Ansible has no
	// plugin of reads none.
	PluginOptions []string
}

// ConnOption is one option of a connection type and the variables that
// set it.
type ConnOption struct {
	Name string
	Vars []string
}

// DefaultParams are the variables a Dialer without Params reads: those
// Ansible gives every connection plugin that logs in to an address
// (remote_addr, remote_user, port, password, private_key_file), with
// their ansible_ssh_ spellings.
var DefaultParams = ConnParams{
	Host:     []string{"ansible_host", "ansible_ssh_host"},
	User:     []string{"ansible_user", "ansible_ssh_user", "ansible_remote_user"},
	Port:     []string{"ansible_port", "ansible_ssh_port"},
	Password: []string{"ansible_password", "ansible_ssh_pass", "ansible_ssh_password"},
	KeyFile:  []string{"ansible_ssh_private_key_file", "ansible_private_key_file"},
}

// ParamsOf returns d's Params, or DefaultParams.
func ParamsOf(d Dialer) ConnParams {
	if p, ok := d.(Params); ok {
		return p.Params()
	}
	return DefaultParams
}

// Announcer is an optional interface of a Dialer: the line Ansible's
// -vvv output shows when a connection of its type to t opens
// ("ESTABLISH SSH CONNECTION FOR USER: deploy"). Without it the engine
// shows "ESTABLISH TYPE CONNECTION FOR USER: user".
type Announcer interface {
	Establish(t Target) string
}

// Controller is an optional interface of a Dialer whose connections start
// programs on the control machine (local runs scripts there; docker runs
// the docker command line, which can do anything the docker daemon can).
// A sandbox that keeps playbooks off the controller refuses them.
type Controller interface {
	OnController() bool
}

// RunsOnController reports whether d's connections start programs on the
// control machine.
func RunsOnController(d Dialer) bool {
	c, ok := d.(Controller)
	return ok && c.OnController()
}
