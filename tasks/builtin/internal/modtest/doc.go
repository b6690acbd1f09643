// Package modtest holds what the tests of every family of built-in
// modules share: an Env on the local transport (TestEnv), running modules
// by name from the registry a test package chooses (UseModules), fake
// tools on PATH, connections that count or record commands, docker-exec
// connections to fleet containers, and the comparison of tender's
// results with those ansible-core recorded. It is for tests only.
package modtest
