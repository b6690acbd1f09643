package playbooks

import "github.com/tender-sh/tender/tasks/builtin"

// testModules is the registry the loader's tests load with: the modules
// tender runs.
var testModules = builtin.Registry()
