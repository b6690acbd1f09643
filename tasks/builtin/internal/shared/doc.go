// Package shared holds what more than one family of built-in modules
// needs: the shell helpers and verdict parsing every module script uses,
// file attributes and the placing of a file on a host (CopyJob), text file
// editing, diffs, HTTP from the host, blob parsing and Python-compatible
// rendering of values. Being internal, it is no API: nothing outside tasks/builtin can import it.
package shared
