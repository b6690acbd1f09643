package provision

// PlayDefaults are the values every play starts from, below its own
// keywords and every variable: what ansible-playbook takes from its
// command line (-u, -c, -b, --become-user, --become-method,
// --force-handlers) and from Ansible's configuration (DEFAULT_REMOTE_USER,
// DEFAULT_TRANSPORT, DEFAULT_BECOME*, DEFAULT_GATHERING,
// DEFAULT_GATHER_SUBSET, DEFAULT_GATHER_TIMEOUT, DEFAULT_FACT_PATH,
// DEFAULT_FORCE_HANDLERS, DEFAULT_STRATEGY). The zero value is Ansible's defaults.
type PlayDefaults struct {
	// RemoteUser is the login user when neither the play, the task nor
	// the host's variables name one; empty leaves it to the dialer (ssh
	// config, then the local user).
	RemoteUser string
	// Connection is the connection plugin (ssh, local, smart, paramiko)
	// when neither the play nor the host's variables name one; Port the
	// port to connect to, likewise.
	Connection, Port string
	// Become turns privilege escalation on for every task that does not
	// say otherwise; BecomeUser (root when empty), BecomeMethod (sudo
	// when empty), BecomeExe and BecomeFlags are the become keywords'
	// defaults.
	Become                                           bool
	BecomeUser, BecomeMethod, BecomeExe, BecomeFlags string
	// BecomePassword is the become password when the host's variables
	// give none (ansible_become_password): what -K asked for. It never
	// appears in an event.
	BecomePassword string
	// Gathering is when a play that does not set gather_facts gathers:
	// "implicit" or "" (always), "explicit" (never), "smart" (only on
	// hosts whose facts this run has not gathered yet).
	Gathering string
	// GatherSubset, GatherTimeout and FactPath are the arguments of a
	// play's implicit fact gathering when the play has no gather_subset,
	// gather_timeout or fact_path keyword; nil, nil and "" leave setup's
	// own defaults. As in Ansible, a setup task in the play is not
	// given them.
	GatherSubset  []any
	GatherTimeout *int
	FactPath      string
	// ForceHandlers runs notified handlers on hosts that failed, as a
	// play's force_handlers: true does.
	ForceHandlers bool
	// Strategy is the strategy of a play that names none
	// (DEFAULT_STRATEGY): linear (or empty), free or host_pinned.
	Strategy string
}
