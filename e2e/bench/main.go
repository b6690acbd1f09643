// Command bench times the same playbook run by ansible-playbook and by
// tender on the same fleet of real sshd hosts (the e2e images), on loopback
// and through a delaying proxy, and writes the medians and ratios to
// docs/BENCHMARKS.md. `make bench` runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

func main() {
	hosts := flag.Int("hosts", 10, "fleet size")
	rounds := flag.Int("rounds", 3, "runs of each tool per scenario")
	out := flag.String("out", "docs/BENCHMARKS.md", "where to write the results")
	hostCPUOnly := flag.Bool("hostcpu", false, "only measure the host CPU of each module's no-op task, and rewrite its section of -out")
	flag.Parse()
	if err := run(*hosts, *rounds, *out, *hostCPUOnly); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type fleet struct {
	dir, key, project string
	ports             []int
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

func run(n, rounds int, outPath string, hostCPUOnly bool) error {
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
	inv1 := filepath.Join(dir, "hosts-1")
	os.WriteFile(inv1, []byte(fmt.Sprintf("h1 ansible_host=127.0.0.1 ansible_port=%d ansible_user=root ansible_ssh_private_key_file=%s\n", f.ports[0], f.key)), 0o644)
	cpu, err := measureHostCPU(f, inv1, rounds)
	if err != nil {
		return err
	}
	if hostCPUOnly {
		return writeHostCPUSection(outPath, cpu, rounds)
	}

	type scenario struct {
		name    string
		latency time.Duration
	}
	var results []result
	var agent agentResult
	for _, sc := range []scenario{{"loopback", 0}, {"10 ms round trip", 10 * time.Millisecond}} {
		ports := f.ports
		var proxies []*sshtest.DelayProxy
		if sc.latency > 0 {
			ports = nil
			for _, p := range f.ports {
				px, err := sshtest.NewDelayProxy(fmt.Sprintf("127.0.0.1:%d", p))
				if err != nil {
					return err
				}
				px.SetLatency(sc.latency)
				proxies = append(proxies, px)
				ports = append(ports, px.Port())
			}
		}
		inv := filepath.Join(dir, "hosts-"+strings.ReplaceAll(sc.name, " ", "_"))
		var b strings.Builder
		for i, p := range ports {
			fmt.Fprintf(&b, "h%d ansible_host=127.0.0.1 ansible_port=%d\n", i+1, p)
		}
		fmt.Fprintf(&b, "\n[all:vars]\nansible_user=root\nansible_ssh_private_key_file=%s\n", f.key)
		os.WriteFile(inv, []byte(b.String()), 0o644)
		r, err := measure(f, sc.name, inv, n, rounds)
		if err == nil && sc.latency == 0 {
			agent, err = measureAgent(f, inv, n, rounds)
		}
		for _, p := range proxies {
			p.Close()
		}
		if err != nil {
			return err
		}
		results = append(results, r)
		fmt.Printf("%s: tender %v/%v, ansible %v/%v\n", sc.name, r.tender[0], r.tender[1], r.ansible[0], r.ansible[1])
	}
	return write(outPath, n, rounds, results, agent, cpu)
}

type result struct {
	scenario         string
	tender, ansible  [2]time.Duration // median first run, median no-op run
	roundTripsByTask float64
}

// measure runs each tool `rounds` times, alternating which goes first; each
// run is a fresh run (new run_id) followed by the same run again (no-op).
func measure(f *fleet, name, inv string, n, rounds int) (result, error) {
	var tf, tn, af, an []time.Duration
	kh := filepath.Join(f.dir, "known_hosts-"+strings.ReplaceAll(name, " ", "_"))
	tender := func(id string) (time.Duration, error) {
		return timed(filepath.Join(f.dir, "tender"), []string{"NO_COLOR=1"}, "play", "-i", inv, "e2e/bench/site.yml",
			"-e", "run_id="+id, "--forks", fmt.Sprint(n), "--host-key-checking", "accept-new", "--known-hosts", kh)
	}
	ansible := func(id string) (time.Duration, error) {
		return timed("ansible-playbook", []string{"ANSIBLE_PIPELINING=1", "ANSIBLE_HOST_KEY_CHECKING=0", "ANSIBLE_NOCOLOR=1",
			fmt.Sprintf("ANSIBLE_FORKS=%d", n), "ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3"},
			"-i", inv, "e2e/bench/site.yml", "-e", "run_id="+id)
	}
	for r := 0; r < rounds; r++ {
		order := []string{"tender", "ansible"}
		if r%2 == 1 {
			order = []string{"ansible", "tender"}
		}
		for _, tool := range order {
			id := fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(name, " ", ""), r, time.Now().UnixNano())
			fn, first, again := tender, &tf, &tn
			if tool == "ansible" {
				fn, first, again = ansible, &af, &an
			}
			d1, err := fn(id)
			if err != nil {
				return result{}, err
			}
			d2, err := fn(id)
			if err != nil {
				return result{}, err
			}
			*first, *again = append(*first, d1), append(*again, d2)
		}
	}
	return result{scenario: name, tender: [2]time.Duration{median(tf), median(tn)},
		ansible: [2]time.Duration{median(af), median(an)}}, nil
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

func write(path string, n, rounds int, rs []result, agent agentResult, cpu []hostCPU) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmarks\n\nWritten by `make bench` (`go run ./e2e/bench`) on %s.\n\n", time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "Machine: %s.\n\n", machine())
	fmt.Fprintf(&b, "The same playbook (`e2e/bench/site.yml`: 10 tasks plus fact gathering) on the same %d sshd hosts of the e2e fleet, "+
		"run by `ansible-playbook` (pipelining on, forks = %d) and by `tender play` (forks = %d), alternating which goes first. "+
		"A *first run* starts from a fresh directory; the *no-op run* repeats it at once and changes nothing. "+
		"Medians of %d runs each. The 10 ms scenario puts a delaying TCP proxy in front of every sshd.\n\n", n, n, n, rounds)
	b.WriteString("| scenario | run | ansible-playbook | tender | tender is faster by |\n|---|---|---:|---:|---:|\n")
	for _, r := range rs {
		for i, kind := range []string{"first run", "no-op run"} {
			fmt.Fprintf(&b, "| %s | %s | %.2f s | %.2f s | %.1f× |\n", r.scenario, kind,
				r.ansible[i].Seconds(), r.tender[i].Seconds(), r.ansible[i].Seconds()/r.tender[i].Seconds())
		}
	}
	b.WriteString("\nRound trips: a task's script costs one round trip on tender's persistent shell " +
		"(`go test -run TestOneRoundTripPerRun -v ./transport/ssh/` measures it against real OpenSSH through the delaying proxy); " +
		"the count per module is pinned by `go test -run TestRoundTrips -v ./tasks/builtin/` and per task of a play, " +
		"through an instrumented transport, by `go test -run TestRoundTripsPerTask -v ./provision/`.\n")
	fmt.Fprintf(&b, "\n## The no-op fleet check of an agent\n\n"+
		"`agents/examples/hello` deployed on the same %d hosts (loopback), then checked again with every host in sync: "+
		"`tender agent deploy` plans each host from its ledger and one script per host (remote MD5s of the tracked files, "+
		"the agent's port) and deploys nothing; ansible-playbook, with no ledger, runs the bundle's playbook again "+
		"(%d module runs per host, all ok, nothing changed). Medians of %d runs each, wall time for the whole fleet.\n\n", n, agent.ansibleTasks, rounds)
	b.WriteString("| check | ansible-playbook | tender | tender is faster by |\n|---|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| no-op check of %d hosts | %.2f s | %.2f s | %.1f× |\n", n, agent.ansible.Seconds(), agent.tender.Seconds(),
		agent.ansible.Seconds()/agent.tender.Seconds())
	writeHostCPU(&b, cpu, rounds)
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
