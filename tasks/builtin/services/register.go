package services

import "github.com/tender-sh/tender/tasks"

// Register adds to r the service modules: service, systemd,
// sysvinit and service_facts.
func Register(r *tasks.Registry) {
	r.Module(func() tasks.Module { return serviceModule{} })
	r.Module(func() tasks.Module { return systemdModule{} })
	r.Module(func() tasks.Module { return serviceFactsModule{} })
	r.Module(func() tasks.Module { return sysvinitModule{} })
}
