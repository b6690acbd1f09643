// Package testhook holds the points where tests of other packages step
// into code under test. Nothing sets them outside tests.
package testhook

// BeforeOpen, when set, runs in sandbox.Policy.Open between the check of
// a path and its open, with the resolved path: the moment another
// process could swap a symlink in.
var BeforeOpen func(real string)
