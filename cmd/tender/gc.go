package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the collector's target for the tender command (the
// GOGC value the Go runtime defaults to 100): the heap may grow by this
// share of what is live before a collection. A run holds about 80 KiB
// of live heap for each host in flight (its SSH connection and shell,
// its facts and results) and, at the default, as much again of garbage
// between collections: half that headroom takes about a seventh off the
// peak memory of a 200-host play and a fifth off a 1,000-host one, for a
// tenth to a third more of tender's CPU, a small share of any run's (the
// hosts and the network bound its wall time). docs/BENCHMARKS.md has the
// measurements.
const gcPercent = 50

// tuneGC sets the collector's target to gcPercent, unless GOGC in the
// environment chose one (the runtime has then applied it, "off"
// included). Only the command does this: a program that embeds tender's
// packages keeps its own setting.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(gcPercent)
}
