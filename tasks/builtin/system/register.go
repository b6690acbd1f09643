package system

import "github.com/tender-sh/tender/tasks"

// Register adds to r the system configuration modules: user, group,
// authorized_key, cron, known_hosts, getent, hostname, sysctl and
// modprobe.
func Register(r *tasks.Registry) {
	r.Register("user", func() tasks.Module { return userModule{} })
	r.Register("group", func() tasks.Module { return groupModule{} })
	r.Add(tasks.Def{Name: "authorized_key", Aliases: []string{"ansible.posix.authorized_key"}, New: func() tasks.Module { return authorizedKeyModule{} }})
	r.Register("cron", func() tasks.Module { return cronModule{} })
	r.Register("known_hosts", func() tasks.Module { return knownHostsModule{} })
	r.Register("getent", func() tasks.Module { return getentModule{} })
	r.Register("hostname", func() tasks.Module { return hostnameModule{} })
	r.Add(tasks.Def{Name: "sysctl", Aliases: []string{"ansible.posix.sysctl"}, New: func() tasks.Module { return sysctlModule{} }})
	r.Add(tasks.Def{Name: "modprobe", Aliases: []string{"community.general.modprobe"}, New: func() tasks.Module { return modprobeModule{} }})
}
