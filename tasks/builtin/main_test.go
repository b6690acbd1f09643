package builtin

import "github.com/tender-sh/tender/tasks/builtin/internal/modtest"

// The shared test helpers run modules from the whole registry here.
func init() { modtest.UseModules(Registry()) }
