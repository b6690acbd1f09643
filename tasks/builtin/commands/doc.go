// Package commands runs commands and programs on a host: command, shell,
// raw, script, expect, and the modules that ship with the content
// (library/) by Ansible's module protocol. Register adds them to a
// registry; builtin.Registry is the one place that gathers every family.
package commands
