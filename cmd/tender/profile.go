package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// Profiling a run, for the scale benchmarks (e2e/scale/bench -profile):
// TENDER_CPUPROFILE names a file that receives the process's CPU profile,
// TENDER_MEMPROFILE one that receives its heap profile at exit, both in
// pprof's format (go tool pprof FILE). Unset, nothing is profiled.
const (
	cpuProfileEnv = "TENDER_CPUPROFILE"
	memProfileEnv = "TENDER_MEMPROFILE"
)

// startProfiles starts what the environment asks for and returns the func
// that writes the profiles out; it must run before the process exits.
func startProfiles(stderr io.Writer) func() {
	var cpu *os.File
	if path := os.Getenv(cpuProfileEnv); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			printWarning(stderr, fmt.Sprintf("%s: %v", cpuProfileEnv, err))
		} else {
			cpu = f
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if path := os.Getenv(memProfileEnv); path != "" {
			runtime.GC()
			f, err := os.Create(path)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				printWarning(stderr, fmt.Sprintf("%s: %v", memProfileEnv, err))
			}
		}
	}
}
