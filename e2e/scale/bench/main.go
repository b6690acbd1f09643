// Command bench measures `tender agent deploy` on a simulated fleet
// (e2e/scale/fleetd, a separate process): for each host count, a first
// deploy of e2e/scale/bundle to every host and then the no-op check, with
// the wall time, CPU time and peak RSS of the tender process alone, and
// writes the results as a section of docs/BENCHMARKS.md. `make bench-scale`
// runs it; it is not part of `make test`.
//
//	go run ./e2e/scale/bench -hosts 100,1000 -rtt 0,20ms
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	hosts := flag.String("hosts", "100,1000", "host counts, comma-separated")
	rtts := flag.String("rtt", "0,20ms", "fleet round-trip times, comma-separated")
	extra := flag.String("tender-flags", "", "more flags for tender agent deploy (space-separated), e.g. \"--forks 200 --batch 1000\"")
	out := flag.String("o", "docs/BENCHMARKS.md", "the file whose scale section is (re)written; empty: print only")
	work := flag.String("work", "", "working directory (default: a temporary one, removed after)")
	flag.StringVar(&profileDir, "profile", "", "write each tender run's CPU and heap profiles (pprof) into this directory")
	flag.Parse()
	if err := run(*hosts, *rtts, strings.Fields(*extra), *out, *work); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// profileDir, when set, receives each run's profiles (-profile).
var profileDir string

// result is one tender run.
type result struct {
	hosts       int
	rtt         time.Duration
	run         string // "first deploy" or "no-op check"
	wall, cpu   time.Duration
	maxRSS      int64 // KiB
	recap       string
	failures    []string // the first few failed hosts' lines
	fleetServed string   // fleetd's counters, on the no-op row
}

func run(hostList, rttList string, extra []string, outPath, work string) error {
	var counts []int
	for _, s := range strings.Split(hostList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("-hosts %q: want counts like 100,1000", hostList)
		}
		counts = append(counts, n)
	}
	var rtts []time.Duration
	for _, s := range strings.Split(rttList, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("-rtt %q: %v", rttList, err)
		}
		rtts = append(rtts, d)
	}
	if work == "" {
		dir, err := os.MkdirTemp("", "tender-scale-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	tender, fleetd := filepath.Join(work, "tender"), filepath.Join(work, "fleetd")
	for _, b := range [][]string{
		{"build", "-tags", "urfave_cli_no_docs", "-o", tender, "./cmd/tender"},
		{"build", "-o", fleetd, "./e2e/scale/fleetd"},
	} {
		if o, err := exec.Command("go", b...).CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %v\n%s", strings.Join(b, " "), err, o)
		}
	}
	bundle, err := makeBundle(work)
	if err != nil {
		return err
	}
	var results []result
	for _, rtt := range rtts {
		for _, n := range counts {
			rs, err := measure(tender, fleetd, bundle, filepath.Join(work, fmt.Sprintf("fleet-%d-%v", n, rtt)), n, rtt, extra)
			for _, r := range rs {
				fmt.Printf("%6d hosts, rtt %-6v %-12s %9v wall %9v cpu %7.1f MiB peak RSS   %s\n",
					r.hosts, r.rtt, r.run, r.wall.Round(time.Millisecond), r.cpu.Round(time.Millisecond), float64(r.maxRSS)/1024, r.recap)
				for _, f := range r.failures {
					fmt.Println("    " + f)
				}
			}
			results = append(results, rs...)
			if err != nil {
				return err
			}
		}
	}
	if outPath == "" {
		return nil
	}
	return writeSection(outPath, results, extra)
}

var (
	recapRe  = regexp.MustCompile(`RECAP .*`)
	failedRe = regexp.MustCompile(`(?m)^\S+: failed .*$`)
)

// measure starts a fleet of n hosts, deploys the bundle to it with tender
// and then checks it again, and stops the fleet.
func measure(tender, fleetd, bundle, root string, n int, rtt time.Duration, extra []string) ([]result, error) {
	fl := exec.Command(fleetd, "-hosts", fmt.Sprint(n), "-root", root, "-rtt", rtt.String())
	fl.Stderr = os.Stderr
	stdout, err := fl.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := fl.Start(); err != nil {
		return nil, err
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "ready:") {
		fl.Process.Kill()
		fl.Wait()
		return nil, fmt.Errorf("fleetd did not start: %q", lines.Text())
	}
	stop := func() string {
		fl.Process.Signal(syscall.SIGTERM)
		var served string
		for lines.Scan() {
			served = strings.TrimPrefix(lines.Text(), "served: ")
		}
		fl.Wait()
		return served
	}
	args := append([]string{"agent", "deploy", "-i", filepath.Join(root, "inventory.ini"), "--bundle", bundle,
		"--state", filepath.Join(root, "ledger.db"), "--known-hosts", filepath.Join(root, "known_hosts"),
		"--private-key", filepath.Join(root, "id_ed25519")}, extra...)
	// --keep-going: a wave with a failed host does not stop the run, so
	// every host is tried and the failures counted.
	args = append(args, "--keep-going")
	var rs []result
	for _, step := range []string{"first deploy", "no-op check"} {
		var env []string
		if profileDir != "" {
			base := filepath.Join(profileDir, fmt.Sprintf("%d-%v-%s", n, rtt, strings.ReplaceAll(step, " ", "-")))
			env = []string{"TENDER_CPUPROFILE=" + base + ".cpu", "TENDER_MEMPROFILE=" + base + ".mem"}
		}
		r, err := timed(tender, args, env)
		r.hosts, r.rtt, r.run = n, rtt, step
		if err == nil && r.recap == "" {
			err = fmt.Errorf("%d hosts, %s: no recap", n, step)
		}
		if err != nil {
			stop()
			return rs, err
		}
		rs = append(rs, r)
	}
	rs[len(rs)-1].fleetServed = stop()
	return rs, nil
}

// timed runs the built tender once and reads its wall time, CPU time and
// peak RSS (the kernel's ru_maxrss of the process, which wait4 returns).
func timed(bin string, args, env []string) (result, error) {
	c := exec.Command(bin, args...)
	c.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	start := time.Now()
	out, err := c.CombinedOutput()
	r := result{wall: time.Since(start), recap: recapRe.FindString(string(out))}
	r.failures = failedRe.FindAllString(string(out), 5)
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 && r.recap != "" {
		err = nil // some hosts failed: counted in the recap
	}
	if err != nil {
		tail := string(out)
		if len(tail) > 4000 {
			tail = "..." + tail[len(tail)-4000:]
		}
		return r, fmt.Errorf("tender %s: %v\n%s", strings.Join(args, " "), err, tail)
	}
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = ru.Maxrss
		r.cpu = time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
	}
	return r, nil
}
