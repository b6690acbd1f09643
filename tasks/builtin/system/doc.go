// Package system configures a host's system: user, group, authorized_key,
// cron, known_hosts, getent, hostname, sysctl and modprobe. Register adds
// them to a registry; builtin.Registry is the one place that gathers every
// family.
package system
