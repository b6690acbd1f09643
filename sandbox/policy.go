package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tender-sh/tender/internal/fqcn"
	"github.com/tender-sh/tender/playbooks/expr"
)

// Policy is the controller sandbox: what a run's playbook may do on the
// machine tender runs on, beside which modules it may use (the
// Registry). It says which lookup plugins may run, which controller
// directories may be read and written (by lookups, template includes,
// controller file tests and the modules that read or write controller
// files: copy, template, script, assemble and unarchive src, include_vars,
// fetch dest, modules that ship with the playbook, the playbook's own
// files, the key and known_hosts files a host's connection variables
// name: it is a transport.Files), which of the controller's environment
// variables expressions see, and whether tasks may run on the controller
// at all.
//
// A nil *Policy allows everything, as Ansible does. A non-nil Policy
// allows only what it states: the zero Policy runs no lookup, reads and
// writes nothing on the controller and runs nothing there. A denied
// access fails the task that attempts it with a *DeniedError.
//
// Paths are compared after being made absolute and having every symlink
// along them resolved (a link whose target does not exist yet resolves to
// that target), so neither ".." nor a symlink leads out of an allowed
// directory. What reads a file's content or a directory's listing does
// it through Open (ReadFile, ReadDir), which opens the very file it
// checked: a symlink another process swaps in after the check leads
// nowhere outside. Other accesses (a stat, an existence test, a write)
// are checked just before they happen. A Policy must not change while a
// run uses it; its methods are safe for concurrent use.
type Policy struct {
	// Name names the policy in denial messages (the CLI uses the sandbox
	// file's path).
	Name string
	// Lookups are the lookup plugins that may run (lookup(), query() and
	// with_<name> loops alike), by short name: "file", "items", ...
	// pipe and lines run commands on the controller and also need Local.
	Lookups []string
	// Read are the absolute directories whose files (and the
	// directories themselves, and everything under them) may be read,
	// listed or tested for existence. A directory in Write may be read
	// too.
	Read []string
	// Write are the absolute directories under which files may be
	// created or written (the password lookup's files, fetch's dest).
	Write []string
	// Env are the controller's environment variables the playbook may
	// read, by name: the env lookup (which Lookups must allow too) and
	// the expandvars filter see these, and every other variable looks
	// unset to them; expanduser expands ~ from HOME only when it is
	// listed, and never from the user database (see LookupEnv).
	Env []string
	// Local allows tasks to run on the controller: a local connection
	// (ansible_connection=local, connection: local) and delegate_to the
	// controller (delegate_to: localhost, local_action). A task that
	// runs on the controller can do there whatever its module can, so
	// Read and Write bound a playbook only when Local is false (or the
	// modules allowed touch no files).
	Local bool
}

// DeniedError is an access a Policy refused.
type DeniedError struct {
	// Policy is the policy's Name.
	Policy string
	// Access is what was attempted: "lookup", "read", "write", "env"
	// or "local".
	Access string
	// Target is the lookup's name, the path as given, the environment
	// variable's name, or what would have run on the controller.
	Target string
	// Resolved is where a path leads after symlinks, when that differs
	// from Target.
	Resolved string
	// Allowed is what the policy allows for Access.
	Allowed []string
}

// Error returns the message the user sees.
func (e *DeniedError) Error() string {
	name := "the controller sandbox"
	if e.Policy != "" {
		name += " " + e.Policy
	}
	allowed := "none"
	if len(e.Allowed) > 0 {
		allowed = strings.Join(e.Allowed, ", ")
	}
	switch e.Access {
	case "lookup":
		return fmt.Sprintf("%s does not allow the lookup %s (lookups allowed: %s)", name, e.Target, allowed)
	case "local":
		return fmt.Sprintf("%s does not allow tasks to run on the controller (%s)", name, e.Target)
	case "env":
		return fmt.Sprintf("%s does not allow reading the environment variable %s (readable: %s)", name, e.Target, allowed)
	}
	verb, list := "reading", "readable"
	if e.Access == "write" {
		verb, list = "writing", "writable"
	}
	leads := ""
	if e.Resolved != "" {
		leads = ", which leads to " + e.Resolved
	}
	return fmt.Sprintf("%s does not allow %s %s%s (%s: %s)", name, verb, e.Target, leads, list, allowed)
}

// Validate checks that p can be enforced as written: every lookup is one
// tender implements, every directory is an absolute path, every
// environment variable a name (CheckEnvName), and pipe and lines (which
// run commands on the controller) come with Local. A nil Policy is
// valid.
func (p *Policy) Validate() error {
	if p == nil {
		return nil
	}
	known := expr.Lookups()
	for _, l := range p.Lookups {
		n := lookupName(l)
		if !slices.Contains(known, n) {
			return fmt.Errorf("sandbox: %q is not a lookup plugin tender implements (%s)", l, strings.Join(known, ", "))
		}
		if (n == "pipe" || n == "lines") && !p.Local {
			return fmt.Errorf("sandbox: the %s lookup runs commands on the controller: allowing it needs local: true", n)
		}
	}
	for _, d := range append(slices.Clip(p.Read), p.Write...) {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("sandbox: directory %q is not an absolute path", d)
		}
	}
	for _, n := range p.Env {
		if err := CheckEnvName(n); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	return nil
}

// CheckLookup returns a *DeniedError unless the lookup plugin name
// (ansible.builtin.NAME means NAME) may run.
func (p *Policy) CheckLookup(name string) error {
	if p == nil {
		return nil
	}
	n := lookupName(name)
	for _, l := range p.Lookups {
		if lookupName(l) == n {
			return nil
		}
	}
	return &DeniedError{Policy: p.Name, Access: "lookup", Target: name, Allowed: p.Lookups}
}

// CheckRead returns a *DeniedError unless the controller path may be read
// (its content, its listing, whether it exists): it must lie under a
// directory of Read or Write. A relative path is taken from the working
// directory.
func (p *Policy) CheckRead(path string) error {
	if p == nil {
		return nil
	}
	return p.check("read", path, append(slices.Clip(p.Read), p.Write...))
}

// CheckWrite returns a *DeniedError unless the controller path may be
// created or written: it must lie under a directory of Write.
func (p *Policy) CheckWrite(path string) error {
	if p == nil {
		return nil
	}
	return p.check("write", path, p.Write)
}

// CheckLocal returns a *DeniedError unless tasks may run on the
// controller; what says what would have run there (a delegate_to, a
// host's local connection).
func (p *Policy) CheckLocal(what string) error {
	if p == nil || p.Local {
		return nil
	}
	return &DeniedError{Policy: p.Name, Access: "local", Target: what}
}

func (p *Policy) check(access, path string, dirs []string) error {
	_, _, err := p.allowed(access, path, dirs)
	return err
}

// maxLinks is how many symlinks Realpath follows before it gives up, as
// the kernel's ELOOP.
const maxLinks = 40

// realpath returns path absolute, with "." and ".." applied and every
// symlink along it resolved, component by component as the kernel walks
// a path (so "link/.." is the parent of the link's target, not the
// directory holding the link). A component that does not exist is kept
// as written; a link whose target does not exist resolves to the
// target's path.
func realpath(path string) (string, error) {
	if path == "" {
		return "", errors.New("empty path")
	}
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		path = wd + "/" + path
	}
	out := "/"
	parts := strings.Split(path, "/")
	for links := 0; len(parts) > 0; {
		part := parts[0]
		parts = parts[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			out = filepath.Dir(out)
			continue
		}
		next := filepath.Join(out, part)
		// Every component is looked at, even past one that does not
		// exist: "missing/../link" reaches link once missing is made.
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			out = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("%s: too many levels of symbolic links", path)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			out = "/"
		}
		parts = append(strings.Split(target, "/"), parts...)
	}
	return out, nil
}

func lookupName(n string) string { return fqcn.Short(n) }
