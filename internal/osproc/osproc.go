// Package osproc holds what tender asks of the operating system that
// differs between a Unix controller and a Windows one: whether a file
// may be run, a file's owner and identity, and running a command in a
// process group that can be killed whole. It imports nothing of
// tender's.
package osproc
