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
	"slices"
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
	flag.BoolVar(&playToo, "play", false, "also run tender play of e2e/bench/site.yml (10 tasks and facts) on every host at once (--forks N), first and no-op")
	flag.IntVar(&playMax, "play-max", 0, "with -play: play only on fleets of at most this many hosts (0: every fleet)")
	flag.IntVar(&gatherTimeoutSecs, "gather-timeout", 600, "with -play: the fact gathering's timeout in seconds (ANSIBLE_GATHER_TIMEOUT; 0: Ansible's 10), long, so that a fleet that shares the controller's cores times the run instead of failing hosts")
	flag.BoolVar(&deploySkip, "no-deploy", false, "skip tender agent deploy (with -play: measure the playbook only)")
	flag.StringVar(&pngPath, "png", "docs/scale.png", "the plot of wall time and RSS against hosts, written when two host counts or more were measured; empty: none")
	flag.Parse()
	if err := run(*hosts, *rtts, strings.Fields(*extra), *out, *work); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// What the flags choose besides the host counts and RTTs.
var (
	profileDir        string // receives each run's profiles (-profile)
	playToo           bool   // -play
	gatherTimeoutSecs int    // -gather-timeout
	playMax           int    // -play-max
	deploySkip        bool   // -no-deploy
	pngPath           string // -png
)

// result is one tender run.
type result struct {
	hosts       int
	rtt         time.Duration
	run         string // "deploy: first", "deploy: no-op", "play: first", "play: no-op"
	wall, cpu   time.Duration
	fleetCPU    time.Duration // the fleet process's CPU (its children's too) during the run
	maxRSS      int64         // KiB
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
	if err == nil {
		sitePath, err = filepath.Abs("e2e/bench/site.yml")
	}
	if err != nil {
		return err
	}
	var results []result
	for _, rtt := range rtts {
		for _, n := range counts {
			rs, err := measure(tender, fleetd, bundle, filepath.Join(work, fmt.Sprintf("fleet-%d-%v", n, rtt)), n, rtt, extra)
			for _, r := range rs {
				fmt.Printf("%6d hosts, rtt %-6v %-14s %9v wall %9v cpu %7.1f MiB peak RSS %9v fleet cpu   %s\n",
					r.hosts, r.rtt, r.run, r.wall.Round(time.Millisecond), r.cpu.Round(time.Millisecond), float64(r.maxRSS)/1024,
					r.fleetCPU.Round(time.Millisecond), r.recap)
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
	if pngPath != "" {
		if err := plotResults(pngPath, results); err != nil {
			return err
		}
	}
	if outPath == "" {
		return nil
	}
	return writeSection(outPath, results, extra)
}

var (
	recapRe      = regexp.MustCompile(`RECAP .*`)
	failedRe     = regexp.MustCompile(`(?m)^\S+: failed .*$`)
	playHostRe   = regexp.MustCompile(`(?m)^\S+\s+: ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)`)
	playFailedRe = regexp.MustCompile(`(?m)^(fatal|failed): .*$`)
)

// playRecap sums the PLAY RECAP of tender play's output: how many hosts
// ran, failed or were unreachable, and the tasks that changed something.
func playRecap(out string) string {
	_, rest, ok := strings.Cut(out, "PLAY RECAP")
	if !ok {
		return ""
	}
	var hosts, changed, unreachable, failed int
	for _, m := range playHostRe.FindAllStringSubmatch(rest, -1) {
		hosts++
		c, _ := strconv.Atoi(m[2])
		changed += c
		if m[3] != "0" {
			unreachable++
		}
		if m[4] != "0" {
			failed++
		}
	}
	return fmt.Sprintf("RECAP play: %d hosts, %d failed, %d unreachable, %d tasks changed", hosts, failed, unreachable, changed)
}

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
	conn := []string{"-i", filepath.Join(root, "inventory.ini"), "--known-hosts", filepath.Join(root, "known_hosts"),
		"--private-key", filepath.Join(root, "id_ed25519")}
	// --keep-going: a wave with a failed host does not stop the run, so
	// every host is tried and the failures counted.
	deploy := append(append([]string{"agent", "deploy", "--bundle", bundle, "--state", filepath.Join(root, "ledger.db")}, conn...),
		append(extra, "--keep-going")...)
	// The playbook works under /proc/self/cwd, each host's own root.
	play := append(append([]string{"play", "--forks", fmt.Sprint(n), "-e", "run_id=scale", "-e", "base=/proc/self/cwd/bench"}, conn...), sitePath)
	var playEnv []string
	if gatherTimeoutSecs > 0 {
		playEnv = []string{fmt.Sprintf("ANSIBLE_GATHER_TIMEOUT=%d", gatherTimeoutSecs)}
	}
	type step struct {
		name string
		args []string
		env  []string
	}
	var steps []step
	if !deploySkip {
		steps = append(steps, step{"deploy: first", deploy, nil}, step{"deploy: no-op", deploy, nil})
	}
	if playToo && (playMax == 0 || n <= playMax) {
		steps = append(steps, step{"play: first", play, playEnv}, step{"play: no-op", play, playEnv})
	}
	var rs []result
	for _, st := range steps {
		env := slices.Clone(st.env) // each step's own: the profiles' paths differ
		if profileDir != "" {
			base := filepath.Join(profileDir, fmt.Sprintf("%d-%v-%s", n, rtt, strings.NewReplacer(": ", "-", " ", "-").Replace(st.name)))
			env = append(env, "TENDER_CPUPROFILE="+base+".cpu", "TENDER_MEMPROFILE="+base+".mem")
		}
		before := processCPU(fl.Process.Pid)
		r, err := timed(tender, st.args, env)
		r.fleetCPU = settledCPU(fl.Process.Pid) - before
		r.hosts, r.rtt, r.run = n, rtt, st.name
		if err == nil && r.recap == "" {
			err = fmt.Errorf("%d hosts, %s: no recap", n, st.name)
		}
		if err != nil {
			stop()
			return rs, err
		}
		rs = append(rs, r)
	}
	if len(rs) > 0 {
		rs[len(rs)-1].fleetServed = stop()
	} else {
		stop()
	}
	return rs, nil
}

// sitePath is the benchmark playbook's absolute path.
var sitePath string

// settledCPU is processCPU once it stops growing (at most 5 s): the
// fleet reaps the shells and sftp-servers of a run's connections after
// the run ends, and only then are their times counted.
func settledCPU(pid int) time.Duration {
	last := processCPU(pid)
	for range 25 {
		time.Sleep(200 * time.Millisecond)
		now := processCPU(pid)
		if now == last {
			break
		}
		last = now
	}
	return last
}

// processCPU is the CPU time a process and its descendants have used:
// for the process and each live descendant, utime, stime, cutime and
// cstime of /proc/PID/stat (a descendant that ended counts in its
// parent's cutime once reaped); 0 when unknown. A fleet split across
// processes is counted whole while it runs.
func processCPU(pid int) time.Duration {
	type proc struct {
		ppid  int
		ticks int64
	}
	procs := map[int]proc{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command name, which may hold spaces, in
		// parentheses: ppid is the 4th field of the line, utime the 14th.
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		var ticks int64
		for _, s := range f[11:15] {
			n, _ := strconv.ParseInt(s, 10, 64)
			ticks += n
		}
		procs[p] = proc{ppid, ticks}
	}
	var total int64
	for p, pr := range procs {
		for q := p; q > 1; q = procs[q].ppid {
			if q == pid {
				total += pr.ticks
				break
			}
			if _, ok := procs[q]; !ok {
				break
			}
		}
	}
	return time.Duration(total) * time.Second / 100 // USER_HZ
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
	if args[0] == "play" {
		r.recap, r.failures = playRecap(string(out)), playFailedRe.FindAllString(string(out), 5)
	}
	if ee, ok := err.(*exec.ExitError); ok && (ee.ExitCode() == 2 || ee.ExitCode() == 4) && r.recap != "" {
		err = nil // some hosts failed or were unreachable: counted in the recap
	}
	if err != nil {
		tail := string(out)
		if len(tail) > 4000 {
			tail = "..." + tail[len(tail)-4000:]
		}
		return r, fmt.Errorf("tender %s: %v\n%s", strings.Join(args, " "), err, tail)
	}
	r.maxRSS, r.cpu = usage(c.ProcessState)
	return r, nil
}
