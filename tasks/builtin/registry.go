package builtin

import "github.com/tender-sh/tender/tasks"

// Registry returns a registry holding every built-in module under its
// canonical name.
func Registry() *tasks.Registry {
	r := &tasks.Registry{}
	r.Register("command", func() tasks.Module { return &commandModule{} })
	r.Register("shell", func() tasks.Module { return &commandModule{shell: true} })
	r.Register("raw", func() tasks.Module { return rawModule{} })
	r.Register("script", func() tasks.Module { return scriptModule{} })
	r.Register("copy", func() tasks.Module { return copyModule{} })
	r.Register("file", func() tasks.Module { return fileModule{} })
	r.Register("stat", func() tasks.Module { return statModule{} })
	r.Register("debug", func() tasks.Module { return debugModule{} })
	r.Register("set_fact", func() tasks.Module { return setFactModule{} })
	r.Register("fail", func() tasks.Module { return failModule{} })
	r.Register("assert", func() tasks.Module { return assertModule{} })
	r.Register("ping", func() tasks.Module { return pingModule{} })
	r.Register("wait_for", func() tasks.Module { return waitForModule{} })
	// system
	r.Register("user", func() tasks.Module { return userModule{} })
	r.Register("group", func() tasks.Module { return groupModule{} })
	r.Register("authorized_key", func() tasks.Module { return authorizedKeyModule{} })
	r.Register("cron", func() tasks.Module { return cronModule{} })
	r.Register("known_hosts", func() tasks.Module { return knownHostsModule{} })
	r.Register("getent", func() tasks.Module { return getentModule{} })
	r.Register("hostname", func() tasks.Module { return hostnameModule{} })
	r.Register("sysctl", func() tasks.Module { return sysctlModule{} })
	r.Register("modprobe", func() tasks.Module { return modprobeModule{} })
	r.Register("debconf", func() tasks.Module { return debconfModule{} })
	r.Register("selinux", func() tasks.Module { return selinuxModule{} })
	r.Register("include_vars", func() tasks.Module { return includeVarsModule{} })
	r.Register("pause", func() tasks.Module { return pauseModule{} })
	r.Register("add_host", func() tasks.Module { return addHostModule{} })
	r.Register("group_by", func() tasks.Module { return groupByModule{} })
	r.Register("set_stats", func() tasks.Module { return setStatsModule{} })
	// files and data
	r.Register("lineinfile", func() tasks.Module { return lineinfileModule{} })
	r.Register("slurp", func() tasks.Module { return slurpModule{} })
	r.Register("replace", func() tasks.Module { return replaceModule{} })
	r.Register("blockinfile", func() tasks.Module { return blockinfileModule{} })
	r.Register("ini_file", func() tasks.Module { return iniFileModule{} })
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
	// modules that ship with the content (library/), by Ansible's module
	// protocol; an embedder's Restrict leaves them out unless it names
	// "library" (playbooks.LibraryModule)
	r.Register("library", func() tasks.Module { return libraryModule{} })
	return r
}
