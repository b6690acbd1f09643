package net

import "github.com/tender-sh/tender/tasks"

// Register adds to r the modules that reach the network from a host:
// get_url, uri, wait_for, iptables, git and subversion.
func Register(r *tasks.Registry) {
	r.Register("wait_for", func() tasks.Module { return waitForModule{} })
	r.Register("get_url", func() tasks.Module { return getURLModule{} })
	r.Register("uri", func() tasks.Module { return uriModule{} })
	r.Register("iptables", func() tasks.Module { return iptablesModule{} })
	r.Register("git", func() tasks.Module { return gitModule{} })
	r.Register("subversion", func() tasks.Module { return subversionModule{} })
}
