package commands

import (
	"github.com/tender-sh/tender/tasks/builtin/control"
	"github.com/tender-sh/tender/tasks/builtin/files"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/net"
	"github.com/tender-sh/tender/tasks/builtin/packages"
	"github.com/tender-sh/tender/tasks/builtin/services"
	"github.com/tender-sh/tender/tasks/builtin/system"
)

// The tests run modules of other families too (shell to look at a host,
// file to set one up), from a registry of every family.
func init() {
	modtest.UseModules(modtest.Families(Register, control.Register, files.Register, net.Register, packages.Register, services.Register, system.Register))
}
