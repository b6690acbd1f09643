package net

import "github.com/tender-sh/tender/tasks"

// Register adds to r the modules that reach the network from a host:
// get_url, uri, wait_for, iptables, git, subversion, ufw and firewalld.
func Register(r *tasks.Registry) {
	r.Module(func() tasks.Module { return waitForModule{} })
	r.Module(func() tasks.Module { return getURLModule{} })
	r.Module(func() tasks.Module { return uriModule{} })
	r.Module(func() tasks.Module { return iptablesModule{} })
	r.Module(func() tasks.Module { return gitModule{} })
	r.Module(func() tasks.Module { return subversionModule{} })
	r.Add(tasks.Def{Aliases: []string{"community.general.ufw"}, New: func() tasks.Module { return ufwModule{} }})
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.firewalld"}, New: func() tasks.Module { return firewalldModule{} }})
}
