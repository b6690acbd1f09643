package playbooks

import (
	"slices"
	"strings"

	names "github.com/tender-sh/tender/internal/suggest"
)

// DefaultModules returns the names of the modules tender implements (the
// engine and module-library issues), used when Options.Modules is nil.
// The names are canonical: short, without a collection prefix.
func DefaultModules() []string {
	return []string{
		// commands
		"shell", "command", "raw", "script",
		// files
		"copy", "file", "stat", "template", "lineinfile", "replace", "blockinfile", "ini_file",
		"unarchive", "get_url", "fetch", "tempfile", "slurp", "find", "assemble",
		// packages
		"apt", "yum", "dnf", "package", "pip",
		// services
		"service", "systemd",
		// system
		"user", "group", "authorized_key", "selinux", "modprobe", "sysctl", "hostname", "cron",
		"uri", "mount", "getent", "debconf", "known_hosts", "pause", "wait_for", "ping", "setup",
		"async_status", "wait_for_connection", "reboot",
		// controller side and play level
		"debug", "set_fact", "assert", "fail", "meta", "include_vars", "add_host", "group_by", "set_stats",
	}
}

// includeModules are the task "modules" this package resolves itself.
var includeModules = []string{"include", "include_tasks", "import_tasks", "include_role", "import_role"}

// freeFormModules take a free-form command line (Ansible's MODULE_REQUIRE_ARGS).
var freeFormModules = map[string]bool{"shell": true, "command": true, "raw": true, "script": true}

// rawParamModules accept free words besides k=v pairs (Ansible's
// RAW_PARAM_MODULES), e.g. "include_tasks: foo.yml", "meta: flush_handlers".
var rawParamModules = map[string]bool{
	"shell": true, "command": true, "raw": true, "script": true,
	"include": true, "include_vars": true, "include_tasks": true, "include_role": true,
	"import_tasks": true, "import_role": true, "add_host": true, "group_by": true,
	"set_fact": true, "meta": true,
}

// collectionAliases maps the fully qualified names of modules that moved
// out of ansible.builtin to the modules of ours that implement them.
var collectionAliases = map[string]string{
	"ansible.posix.selinux":        "selinux",
	"ansible.posix.sysctl":         "sysctl",
	"ansible.posix.authorized_key": "authorized_key",
	"ansible.posix.mount":          "mount",
	"community.general.ini_file":   "ini_file",
	"community.general.modprobe":   "modprobe",
}

// CanonicalModule maps a module name as a playbook writes it to the name
// tender knows it by: "ansible.builtin.X" and "ansible.legacy.X" mean "X",
// and the few collection modules we implement map to ours
// ("ansible.posix.sysctl" is "sysctl"). Other names come back unchanged.
func CanonicalModule(name string) string {
	if c, ok := collectionAliases[name]; ok {
		return c
	}
	for _, p := range []string{"ansible.builtin.", "ansible.legacy."} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return rest
		}
	}
	return name
}

// moduleSet answers whether a canonical name is a known module, and
// suggests the nearest one.
type moduleSet struct {
	names   []string
	set     map[string]bool
	content bool // modules that ship with the content are allowed (LibraryModule)
}

func newModuleSet(names []string) *moduleSet {
	m := &moduleSet{set: map[string]bool{}}
	if names == nil {
		names = DefaultModules()
		m.content = true
	}
	for _, n := range append(slices.Clone(names), includeModules...) {
		if n == LibraryModule {
			m.content = true
			continue
		}
		if !m.set[n] {
			m.set[n] = true
			m.names = append(m.names, n)
		}
	}
	return m
}

// known reports whether name (as written) is a module, and its canonical name.
func (m *moduleSet) known(name string) (string, bool) {
	c := CanonicalModule(name)
	return c, m.set[c]
}

// suggest returns the known name nearest to name ("" when nothing is close).
func suggest(name string, candidates []string) string {
	name = CanonicalModule(name)
	best, bestD := "", -1
	for _, c := range candidates {
		d := names.Distance(name, c)
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	// Close enough to be a typo: at most a third of the word, at least 1.
	limit := max(1, (len(name)+2)/3)
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// didYouMean formats a suggestion for an error message.
func didYouMean(name string, candidates []string) string {
	if s := suggest(name, candidates); s != "" {
		return ` (did you mean "` + s + `"?)`
	}
	return ""
}
