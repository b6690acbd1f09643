package system

// The options of Ansible's system modules that tender does not implement
// yet, each with what it would take; tender doc and docs/MODULES.md list
// them, and Spec.Decode refuses them with the reason.

// todoSys is the reason of an option not implemented yet.
const todoSys = "not implemented yet"

// libuser is the reason of the local option of user and group.
const libuser = "manages /etc/passwd and /etc/group with libuser's luseradd/lgroupadd, which the hosts tender manages do not ship by default; not implemented"

var userRefused = map[string]string{
	"authorization": "Solaris RBAC only; tender manages Linux hosts",
	"profile":       "Solaris RBAC only; tender manages Linux hosts",
	"role":          "Solaris RBAC only; tender manages Linux hosts",
	"login_class":   "BSD login classes only; tender manages Linux hosts",
	"hidden":        "macOS only; tender manages Linux hosts",
}

var groupRefused = map[string]string{"local": libuser}

var modprobeRefused = map[string]string{"persistent": todoSys}
