// Package net holds the modules that reach the network from a host:
// get_url, uri, wait_for, iptables, git and subversion. Register adds them
// to a registry; builtin.Registry is the one place that gathers every
// family.
package net
