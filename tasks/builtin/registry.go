package builtin

import "github.com/tender-sh/tender/tasks"

// Registry returns a registry holding every built-in module under its
// canonical name: the one list of the modules tender runs, read by the
// playbook loader, the engine and `tender doc`.
func Registry() *tasks.Registry {
	r := &tasks.Registry{}
	r.Add(tasks.Def{Name: "command", FreeForm: true, New: func() tasks.Module { return &commandModule{} }})
	r.Add(tasks.Def{Name: "shell", FreeForm: true, New: func() tasks.Module { return &commandModule{shell: true} }})
	r.Add(tasks.Def{Name: "raw", FreeForm: true, New: func() tasks.Module { return rawModule{} }})
	r.Add(tasks.Def{Name: "script", FreeForm: true, New: func() tasks.Module { return scriptModule{} }})
	r.Register("copy", func() tasks.Module { return copyModule{} })
	r.Register("file", func() tasks.Module { return fileModule{} })
	r.Register("stat", func() tasks.Module { return statModule{} })
	r.Register("debug", func() tasks.Module { return debugModule{} })
	r.Add(tasks.Def{Name: "set_fact", RawParams: true, Traits: tasks.Traits{SetsVars: true, FromPlaybook: true, PlayFacts: true, CacheableArg: "cacheable"}, New: func() tasks.Module { return setFactModule{} }})
	r.Register("fail", func() tasks.Module { return failModule{} })
	r.Register("assert", func() tasks.Module { return assertModule{} })
	// validate_argument_spec runs on the controller; its result is marked
	// unsafe as any module's but set_fact's and include_vars', so it needs
	// no Traits.
	r.Register("validate_argument_spec", func() tasks.Module { return validateArgumentSpecModule{} })
	r.Register("ping", func() tasks.Module { return pingModule{} })
	r.Register("wait_for", func() tasks.Module { return waitForModule{} })
	// system
	r.Register("user", func() tasks.Module { return userModule{} })
	r.Register("group", func() tasks.Module { return groupModule{} })
	r.Add(tasks.Def{Name: "authorized_key", Aliases: []string{"ansible.posix.authorized_key"}, New: func() tasks.Module { return authorizedKeyModule{} }})
	r.Register("cron", func() tasks.Module { return cronModule{} })
	r.Register("known_hosts", func() tasks.Module { return knownHostsModule{} })
	r.Register("getent", func() tasks.Module { return getentModule{} })
	r.Register("hostname", func() tasks.Module { return hostnameModule{} })
	r.Add(tasks.Def{Name: "sysctl", Aliases: []string{"ansible.posix.sysctl"}, New: func() tasks.Module { return sysctlModule{} }})
	r.Add(tasks.Def{Name: "modprobe", Aliases: []string{"community.general.modprobe"}, New: func() tasks.Module { return modprobeModule{} }})
	r.Register("debconf", func() tasks.Module { return debconfModule{} })
	r.Add(tasks.Def{Name: "selinux", Aliases: []string{"ansible.posix.selinux"}, New: func() tasks.Module { return selinuxModule{} }})
	r.Add(tasks.Def{Name: "include_vars", RawParams: true, Traits: tasks.Traits{FromPlaybook: true, PlayFacts: true}, New: func() tasks.Module { return includeVarsModule{} }})
	r.Add(tasks.Def{Name: "pause", Traits: tasks.Traits{BypassHostLoop: true}, New: func() tasks.Module { return pauseModule{} }})
	r.Add(tasks.Def{Name: "add_host", RawParams: true, Traits: tasks.Traits{BypassHostLoop: true}, New: func() tasks.Module { return addHostModule{} }})
	r.Add(tasks.Def{Name: "group_by", RawParams: true, New: func() tasks.Module { return groupByModule{} }})
	r.Register("set_stats", func() tasks.Module { return setStatsModule{} })
	// files and data
	r.Register("lineinfile", func() tasks.Module { return lineinfileModule{} })
	r.Register("slurp", func() tasks.Module { return slurpModule{} })
	r.Register("replace", func() tasks.Module { return replaceModule{} })
	r.Register("blockinfile", func() tasks.Module { return blockinfileModule{} })
	r.Add(tasks.Def{Name: "ini_file", Aliases: []string{"community.general.ini_file"}, New: func() tasks.Module { return iniFileModule{} }})
	r.Register("template", func() tasks.Module { return templateModule{} })
	r.Register("tempfile", func() tasks.Module { return tempfileModule{} })
	r.Register("find", func() tasks.Module { return findModule{} })
	// packages and services
	r.Register("apt", func() tasks.Module { return aptModule{} })
	r.Register("service", func() tasks.Module { return serviceModule{} })
	r.Register("systemd", func() tasks.Module { return systemdModule{} })
	r.Register("package", func() tasks.Module { return packageModule{} })
	r.Register("dnf", func() tasks.Module { return rpmModule{tool: "dnf"} })
	r.Register("yum", func() tasks.Module { return rpmModule{tool: "yum"} })
	r.Register("assemble", func() tasks.Module { return assembleModule{} })
	r.Register("fetch", func() tasks.Module { return fetchModule{} })
	r.Register("pip", func() tasks.Module { return pipModule{} })
	r.Register("get_url", func() tasks.Module { return getURLModule{} })
	r.Register("uri", func() tasks.Module { return uriModule{} })
	r.Register("unarchive", func() tasks.Module { return unarchiveModule{} })
	r.Register("apt_key", func() tasks.Module { return aptKeyModule{} })
	r.Register("apt_repository", func() tasks.Module { return aptRepositoryModule{} })
	r.Register("dpkg_selections", func() tasks.Module { return dpkgSelectionsModule{} })
	r.Register("package_facts", func() tasks.Module { return packageFactsModule{} })
	r.Register("rpm_key", func() tasks.Module { return rpmKeyModule{} })
	r.Register("yum_repository", func() tasks.Module { return yumRepositoryModule{} })
	r.Register("service_facts", func() tasks.Module { return serviceFactsModule{} })
	r.Register("sysvinit", func() tasks.Module { return sysvinitModule{} })
	r.Register("iptables", func() tasks.Module { return iptablesModule{} })
	r.Register("expect", func() tasks.Module { return expectModule{} })
	// source control
	r.Register("git", func() tasks.Module { return gitModule{} })
	r.Register("subversion", func() tasks.Module { return subversionModule{} })
	// modules that ship with the content (library/), by Ansible's module
	// protocol; an embedder's Restrict leaves them out unless it names
	// "library" (playbooks.LibraryModule)
	r.Register("library", func() tasks.Module { return libraryModule{} })
	return r
}
