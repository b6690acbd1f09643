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
	// packages and services
	r.Register("apt", func() tasks.Module { return aptModule{} })
	r.Register("service", func() tasks.Module { return serviceModule{} })
	r.Register("systemd", func() tasks.Module { return systemdModule{} })
	r.Register("package", func() tasks.Module { return packageModule{} })
	r.Register("dnf", func() tasks.Module { return rpmModule{tool: "dnf"} })
	r.Register("yum", func() tasks.Module { return rpmModule{tool: "yum"} })
	r.Register("pip", func() tasks.Module { return pipModule{} })
	r.Register("get_url", func() tasks.Module { return getURLModule{} })
	r.Register("uri", func() tasks.Module { return uriModule{} })
	r.Register("unarchive", func() tasks.Module { return unarchiveModule{} })
	return r
}
