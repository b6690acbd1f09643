package system

import "github.com/tender-sh/tender/tasks"

// Register adds to r the system configuration modules: user, group,
// authorized_key, cron, known_hosts, getent, hostname, sysctl, modprobe,
// pam_limits, locale_gen, mount, at, timezone, alternatives, filesystem, parted,
// lvg, lvol and seboolean.
func Register(r *tasks.Registry) {
	r.Module(func() tasks.Module { return userModule{} })
	r.Module(func() tasks.Module { return groupModule{} })
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.authorized_key"}, New: func() tasks.Module { return authorizedKeyModule{} }})
	r.Module(func() tasks.Module { return cronModule{} })
	r.Module(func() tasks.Module { return knownHostsModule{} })
	r.Module(func() tasks.Module { return getentModule{} })
	r.Module(func() tasks.Module { return hostnameModule{} })
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.sysctl"}, New: func() tasks.Module { return sysctlModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.modprobe"}, New: func() tasks.Module { return modprobeModule{} }})
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.mount"}, New: func() tasks.Module { return mountModule{} }})
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.at"}, New: func() tasks.Module { return atModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.lvg"}, New: func() tasks.Module { return lvgModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.lvol"}, New: func() tasks.Module { return lvolModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.timezone"}, New: func() tasks.Module { return timezoneModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.alternatives"}, New: func() tasks.Module { return alternativesModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.pam_limits"}, New: func() tasks.Module { return pamLimitsModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.locale_gen"}, New: func() tasks.Module { return localeGenModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.filesystem"}, New: func() tasks.Module { return filesystemModule{} }})
	r.Add(tasks.Def{Aliases: []string{"community.general.parted"}, New: func() tasks.Module { return partedModule{} }})
	r.Add(tasks.Def{Aliases: []string{"ansible.posix.seboolean"}, New: func() tasks.Module { return sebooleanModule{} }})
}
