// Command bench times the same playbook run by ansible-playbook and by
// tender on the same fleet of real sshd hosts (the e2e images), on loopback
// and through a delaying proxy, and writes the medians and ratios to
// docs/BENCHMARKS.md. `make bench` runs it.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	sizes := flag.String("sizes", "10,50", "fleet sizes (inventory hosts) to measure, comma-separated")
	latency := flag.Duration("latency", 50*time.Millisecond, "round trip the delaying proxies add in the second network scenario")
	rounds := flag.Int("rounds", 3, "runs of each tool per scenario of up to 10 hosts")
	largeRounds := flag.Int("large-rounds", 1, "runs of each tool per scenario of more than 10 hosts")
	out := flag.String("out", "docs/BENCHMARKS.md", "where to write the results")
	hostCPUOnly := flag.Bool("hostcpu", false, "only measure the host CPU of each module's no-op task, and rewrite its section of -out")
	skipHostCPU := flag.Bool("skip-hostcpu", false, "do not measure the host CPU per task: -out keeps its section as it is")
	published := flag.Bool("published", false, "connect through the ports Docker publishes on 127.0.0.1 (its docker-proxy) even where the containers' bridge addresses answer")
	flag.Parse()
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "bench: -sizes: %q is not a number of hosts\n", f)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	var scs []scenario
	for _, n := range ns {
		r := *rounds
		if n > 10 {
			r = *largeRounds
		}
		for _, l := range []time.Duration{0, *latency} {
			scs = append(scs, scenario{hosts: n, latency: l, rounds: r})
		}
	}
	if err := run(scs, *rounds, *out, *hostCPUOnly, *skipHostCPU, *published); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// maxContainers bounds the fleet: larger inventories put several hosts
// on each container.
const maxContainers = 10

type fleet struct {
	dir, key, project string
	ports             []int    // each container's sshd as published on 127.0.0.1
	addrs             []string // where the tools reach each container's sshd (see reach)
	bridged           bool     // addrs are the containers' bridge addresses
}

// hostPort splits the i-th container's address for an inventory line.
func (f *fleet) hostPort(i int) (string, string) {
	h, p, _ := net.SplitHostPort(f.addrs[i])
	return h, p
}

func sh(name string, args ...string) (string, error) {
	c := exec.Command(name, args...)
	b, err := c.CombinedOutput()
	if err != nil {
		return string(b), fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, b)
	}
	return string(b), nil
}

func (f *fleet) compose(args ...string) (string, error) {
	c := exec.Command("docker-compose", append([]string{"-p", f.project, "-f", "e2e/fleet/docker-compose.yml"}, args...)...)
	c.Env = append(os.Environ(), "TENDER_E2E_KEYS="+filepath.Join(f.dir, "authorized_keys"))
	b, err := c.CombinedOutput()
	if err != nil {
		return string(b), fmt.Errorf("docker-compose %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return string(b), nil
}

func run(scs []scenario, rounds int, outPath string, hostCPUOnly, skipHostCPU, published bool) error {
	n := 1
	for _, sc := range scs {
		n = max(n, min(sc.hosts, maxContainers))
	}
	dir, err := os.MkdirTemp("", "tender-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	f := &fleet{dir: dir, key: filepath.Join(dir, "id_ed25519"), project: fmt.Sprintf("tender-bench-%d", os.Getpid())}
	steps := [][]string{
		{"bash", "e2e/fleet/build-images.sh", "tender-e2e/debian-py"},
		{"bash", "e2e/fleet/aptrepo.sh"},
		{"go", "build", "-tags", "urfave_cli_no_docs", "-o", filepath.Join(dir, "tender"), "./cmd/tender"},
		{"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", f.key},
	}
	for _, s := range steps {
		if _, err := sh(s[0], s[1:]...); err != nil {
			return err
		}
	}
	os.Rename(f.key+".pub", filepath.Join(dir, "authorized_keys"))
	os.Chmod(filepath.Join(dir, "authorized_keys"), 0o644)
	defer f.compose("down", "-v", "--remove-orphans")
	if _, err := f.compose("up", "-d", "--scale", fmt.Sprintf("py=%d", n), "--scale", "nopy=0"); err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		o, err := f.compose("port", "--index", fmt.Sprint(i), "py", "22")
		if err != nil {
			return err
		}
		var p int
		fmt.Sscanf(o[strings.LastIndex(o, ":")+1:], "%d", &p)
		f.ports = append(f.ports, p)
	}
	time.Sleep(3 * time.Second)
	if err := f.reach(published); err != nil {
		return err
	}
	inv1 := filepath.Join(dir, "hosts-1")
	h, p := f.hostPort(0)
	os.WriteFile(inv1, []byte(fmt.Sprintf("h1 ansible_host=%s ansible_port=%s ansible_user=root ansible_ssh_private_key_file=%s\n", h, p, f.key)), 0o644)
	var cpu *hostCPUReport
	if !skipHostCPU {
		if cpu, err = measureHostCPU(f, inv1, rounds); err != nil {
			return err
		}
	}
	if hostCPUOnly {
		return writeHostCPUSection(outPath, cpu, rounds)
	}

	var results []result
	var agent agentResult
	for _, sc := range scs {
		r, inv, err := sideBySide(f, sc)
		if err == nil && sc.latency == 0 && sc.hosts == scs[0].hosts {
			agent, err = measureAgent(f, inv, sc.hosts, rounds)
		}
		if err != nil {
			return err
		}
		results = append(results, r)
		fmt.Printf("%d hosts, %s: tender %v/%v, ansible %v/%v, turns per host tender %.1f/%.1f ansible %.1f/%.1f\n", sc.hosts, sc.name(),
			r.tender[0], r.tender[1], r.ansible[0], r.ansible[1], r.tTurns[0], r.tTurns[1], r.aTurns[0], r.aTurns[1])
	}
	return write(outPath, scs[0].hosts, rounds, results, agent, cpu, f.bridged)
}

func timed(bin string, env []string, args ...string) (time.Duration, error) {
	d, out, err := timedOut(bin, env, args...)
	if err == nil && (!strings.Contains(out, "failed=0") || strings.Contains(out, "failed=1")) {
		return 0, fmt.Errorf("%s run failed:\n%s", bin, out)
	}
	return d, err
}

// timedOut runs bin and returns how long it took and what it printed.
func timedOut(bin string, env []string, args ...string) (time.Duration, string, error) {
	c := exec.Command(bin, args...)
	c.Env = append(os.Environ(), env...)
	start := time.Now()
	out, err := c.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		return 0, "", fmt.Errorf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
	return d, string(out), nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func machine() string {
	var parts []string
	if o, err := sh("nproc"); err == nil {
		parts = append(parts, strings.TrimSpace(o)+" cores")
	}
	if o, err := sh("sh", "-c", "awk '/MemTotal/ {printf \"%.0f GiB RAM\", $2/1048576}' /proc/meminfo"); err == nil {
		parts = append(parts, strings.TrimSpace(o))
	}
	if o, err := sh("uname", "-sr"); err == nil {
		parts = append(parts, strings.TrimSpace(o))
	}
	if o, err := sh("docker", "version", "--format", "Docker {{.Server.Version}}"); err == nil {
		parts = append(parts, strings.TrimSpace(o))
	}
	if o, err := sh("ansible-playbook", "--version"); err == nil {
		parts = append(parts, strings.TrimSpace(strings.SplitN(o, "\n", 2)[0]))
	}
	return strings.Join(parts, ", ")
}

func write(path string, n, rounds int, rs []result, agent agentResult, cpu *hostCPUReport, bridged bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmarks\n\nWritten by `%s` on %s (`make bench` runs `go run ./e2e/bench` with its defaults: "+
		"3 runs up to 10 hosts, 1 above, and the host CPU per task).\n\n",
		strings.TrimSpace("go run ./e2e/bench "+strings.Join(os.Args[1:], " ")), time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "Machine: %s.\n\n", machine())
	fmt.Fprintf(&b, "The same playbook (`e2e/bench/site.yml`: 10 tasks plus fact gathering) on the same sshd hosts of the e2e fleet "+
		"(up to %d containers; a larger inventory puts several hosts on each), run by `ansible-playbook` (pipelining on, forks = hosts) "+
		"and by `tender play` (forks = hosts), alternating which goes first. "+
		"A *first run* starts from a fresh directory; the *no-op run* repeats it at once and changes nothing. "+
		"Each figure is %s up to 10 hosts, %s above. "+
		"The delayed scenarios put a delaying TCP proxy in front of every container's sshd, which also counts each client's turns: "+
		"the times it sent data after the host had answered, one per round trip it waited for (the TCP handshake not counted). "+
		"tender's *handshake* is what it takes to connect and start its shell: the turns of a play of one command, less one. %s\n\n",
		maxContainers, runsText(rounds), runsText(largeRoundsOf(rs)), reachedText(bridged))
	writeSides(&b, rs)
	b.WriteString("\nA task whose module's script tells its whole outcome by its exit status sends the next tasks' scripts in the same write " +
		"(see docs/ARCHITECTURE.md, *Tasks sent ahead*): the no-op run's 10 tasks go in two writes, one up to the registered `stat`, " +
		"one after the `assert`. `go test -run TestRunAheadOneTurn -v ./transport/ssh/` counts the turns of such a write through the proxy; " +
		"`go test -run TestTasksSentAhead -v ./provision/` pins which tasks of a play go together.\n")
	fmt.Fprintf(&b, "\n## The no-op fleet check of an agent\n\n"+
		"`agents/examples/hello` deployed on the same %d hosts (loopback), then checked again with every host in sync: "+
		"`tender agent deploy` plans each host from its ledger and one script per host (remote MD5s of the tracked files, "+
		"the agent's port) and deploys nothing; ansible-playbook, with no ledger, runs the bundle's playbook again "+
		"(%d module runs per host, all ok, nothing changed). Wall time for the whole fleet, %s.\n\n", n, agent.ansibleTasks, runsText(rounds))
	b.WriteString("| check | ansible-playbook | tender | tender is faster by |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| no-op check of %d hosts | %.2f s | %.2f s | %.1f× |\n", n, agent.ansible.Seconds(), agent.tender.Seconds(),
		agent.ansible.Seconds()/agent.tender.Seconds())
	if cpu != nil {
		writeHostCPU(&b, cpu, rounds)
	} else if old, err := os.ReadFile(path); err == nil {
		text := string(old)
		if i, j := strings.Index(text, hostCPUStart), strings.Index(text, hostCPUEnd); i >= 0 && j > i {
			b.WriteString("\n" + text[i:j+len(hostCPUEnd)] + "\n")
		}
	}
	// The scale section (written by make bench-scale, e2e/scale/bench)
	// is kept as it is.
	if old, err := os.ReadFile(path); err == nil {
		if i := strings.Index(string(old), scaleSection); i >= 0 {
			b.WriteString("\n" + string(old[i:]))
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// scaleSection starts the section of docs/BENCHMARKS.md that
// e2e/scale/bench writes (its sectionStart).
const scaleSection = "<!-- scale: written by make bench-scale -->"

// largeRoundsOf is the rounds of the scenarios of more than 10 hosts (0
// when there is none).
func largeRoundsOf(rs []result) int {
	for _, r := range rs {
		if r.sc.hosts > 10 {
			return r.sc.rounds
		}
	}
	return 0
}

// runsText says how many runs of each tool a figure comes from.
func runsText(n int) string {
	if n == 1 {
		return "one run of each tool"
	}
	return fmt.Sprintf("the median of %d runs of each tool", n)
}
