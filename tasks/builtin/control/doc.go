// Package control holds the modules that run on the controller or steer
// the play: debug, fail, assert, set_fact, set_stats, include_vars, pause,
// add_host, group_by, validate_argument_spec (with its argument-spec
// checker) and ping. Register adds them to a registry; builtin.Registry is
// the one place that gathers every family.
package control
