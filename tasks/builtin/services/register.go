package services

import "github.com/tender-sh/tender/tasks"

// Register adds to r the service modules: service, systemd,
// sysvinit and service_facts.
func Register(r *tasks.Registry) {
	r.Register("service", func() tasks.Module { return serviceModule{} })
	r.Register("systemd", func() tasks.Module { return systemdModule{} })
	r.Register("service_facts", func() tasks.Module { return serviceFactsModule{} })
	r.Register("sysvinit", func() tasks.Module { return sysvinitModule{} })
}
