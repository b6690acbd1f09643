// Package sandbox is the controller sandbox an embedding program gives a
// run: which lookups may run, which controller files and directories a
// playbook may read and write, which environment variables it may see,
// and whether it may run commands on the controller (Policy). The
// playbook loader, the engine and the modules all read it from here.
package sandbox
