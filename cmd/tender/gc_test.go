package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestTuneGC: without GOGC the command's collector target is gcPercent;
// with GOGC set, tuneGC leaves what the runtime applied alone.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	old, had := os.LookupEnv("GOGC")
	t.Cleanup(func() {
		if had {
			os.Setenv("GOGC", old)
		} else {
			os.Unsetenv("GOGC")
		}
	})

	os.Unsetenv("GOGC")
	tuneGC()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Fatalf("without GOGC: collector target %d, want %d", got, gcPercent)
	}

	os.Setenv("GOGC", "80")
	debug.SetGCPercent(80) // what the runtime made of it at start
	tuneGC()
	if got := debug.SetGCPercent(100); got != 80 {
		t.Fatalf("with GOGC=80: collector target %d, want 80 left alone", got)
	}
}
