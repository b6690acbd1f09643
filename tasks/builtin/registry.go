package builtin

import (
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/commands"
	"github.com/tender-sh/tender/tasks/builtin/control"
	"github.com/tender-sh/tender/tasks/builtin/files"
	"github.com/tender-sh/tender/tasks/builtin/net"
	"github.com/tender-sh/tender/tasks/builtin/packages"
	"github.com/tender-sh/tender/tasks/builtin/services"
	"github.com/tender-sh/tender/tasks/builtin/system"
)

// Registry returns a registry holding every built-in module under its
// canonical name: the one list of the modules tender runs, read by the
// playbook loader, the engine and `tender doc`.
func Registry() *tasks.Registry {
	r := &tasks.Registry{}
	commands.Register(r)
	files.Register(r)
	control.Register(r)
	system.Register(r)
	packages.Register(r)
	services.Register(r)
	net.Register(r)
	return r
}
