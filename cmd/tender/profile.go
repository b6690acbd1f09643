package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

// Profiling a run, for the scale benchmarks (e2e/scale/bench -profile):
// TENDER_CPUPROFILE names a file that receives the process's CPU profile,
// TENDER_MEMPROFILE one that receives its heap profile, both in pprof's
// format (go tool pprof FILE). The heap profile is the one taken when the
// heap was largest (sampled four times a second), so that its in-use
// figures show what the run held at its peak, hosts in flight; its
// allocation figures are the run's up to then; FILE.txt gets the
// runtime's figures at that moment (heap, stacks, goroutines, and the
// goroutines' stacks grouped alike). Unset, nothing is profiled.
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
	var peak *heapPeak
	if os.Getenv(memProfileEnv) != "" {
		peak = watchHeap(250 * time.Millisecond)
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if path := os.Getenv(memProfileEnv); path != "" {
			prof := peak.stop()
			// The runtime's own figures at the peak, beside the profile.
			_ = os.WriteFile(path+".txt", []byte(peak.stats), 0o644)
			f, err := os.Create(path)
			if err == nil {
				_, err = f.Write(prof)
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

// heapPeak keeps the heap profile of the moment the heap was largest.
type heapPeak struct {
	mu    sync.Mutex
	max   uint64
	prof  []byte
	stats string // the runtime's figures at the peak
	done  chan struct{}
	wg    sync.WaitGroup
}

// watchHeap samples the heap every period and keeps a profile whenever
// it is a tenth above the largest seen.
func watchHeap(period time.Duration) *heapPeak {
	p := &heapPeak{done: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			p.sample()
			select {
			case <-t.C:
			case <-p.done:
				return
			}
		}
	}()
	return p
}

func (p *heapPeak) sample() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.prof != nil && ms.HeapInuse <= p.max+p.max/10 {
		return
	}
	var b bytes.Buffer
	if pprof.Lookup("allocs").WriteTo(&b, 0) == nil {
		p.max, p.prof = ms.HeapInuse, b.Bytes()
		p.stats = fmt.Sprintf("heap in use %d, stacks %d, goroutines %d, from the OS %d (bytes)\n",
			ms.HeapInuse, ms.StackInuse, runtime.NumGoroutine(), ms.Sys)
		// What the goroutines were doing, grouped by stack: which of
		// them each host in flight holds.
		var g bytes.Buffer
		if pprof.Lookup("goroutine").WriteTo(&g, 1) == nil {
			p.stats += "\n" + g.String()
		}
	}
}

// stop ends the sampling and returns the peak's profile (one taken now
// when none was).
func (p *heapPeak) stop() []byte {
	close(p.done)
	p.wg.Wait()
	p.sample()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.prof
}
