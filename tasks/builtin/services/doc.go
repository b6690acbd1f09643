// Package services manages services: service, systemd, sysvinit and
// service_facts. Register adds them to a registry; builtin.Registry is the
// one place that gathers every family.
package services
