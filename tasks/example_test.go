package tasks_test

import (
	"fmt"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin"
)

// A control plane that deploys agents can allow only the modules its
// bundles need: a playbook naming any other fails to load, before a host
// is touched.
func ExampleRegistry_Restrict() {
	var all *tasks.Registry = builtin.Registry()
	reg, err := all.Restrict("copy", "template", "service", "ansible.builtin.file")
	if err != nil {
		fmt.Println(err)
		return
	}
	_, shell := reg.Lookup("shell")
	_, file := reg.Lookup("ansible.builtin.file")
	fmt.Println("shell allowed:", shell, "file allowed:", file)
	_, err = builtin.Registry().Restrict("no_such_module")
	fmt.Println(err)
	// Output:
	// shell allowed: false file allowed: true
	// no module "no_such_module" to allow
}
