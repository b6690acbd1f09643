package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// hostCPUCase is one module's no-op task: run once to make the state,
// then timed, repeated, on a host where it changes nothing.
type hostCPUCase struct {
	module string
	task   string // one task, YAML, indented as a list item of tasks:
}

// hostCPUCases are the modules of issue 32's budget, each a task that is
// a no-op once run.
var hostCPUCases = []hostCPUCase{
	{"copy", `copy: {dest: /tmp/hc/copy.txt, content: "hello\n", mode: "0644"}`},
	{"file", `file: {path: /tmp/hc/dir, state: directory, mode: "0755"}`},
	{"lineinfile", `lineinfile: {path: /tmp/hc/lines.conf, line: "key=value", create: true, mode: "0644"}`},
	{"template", `template: {src: TEMPLATE, dest: /tmp/hc/t.conf, mode: "0644"}`},
	{"service", `service: {name: ssh, state: started}`},
	{"apt", `apt: {name: openssh-server, state: present}`},
	{"user", `user: {name: hcuser, shell: /bin/sh}`},
	{"command creates", `command: {cmd: touch /tmp/hc/made, creates: /tmp/hc/made}`},
}

// hostCPU is what one module's no-op task costs the host, per task:
// the CPU time of the host's container (its sshd, shells and commands),
// by cgroup accounting, for tender and for ansible-playbook.
type hostCPU struct {
	module          string
	tender, ansible time.Duration
}

// hostFloor is what the host pays whichever tool drives it: one SSH
// connection (OpenSSH's own client running true: sshd's key exchange,
// login and session), one program started from a shell, one fork of the
// shell. It puts the per-task figures in scale, and bounds a run's wall
// time where the hosts share the controller's cores.
type hostFloor struct {
	conn, program, fork time.Duration
}

// hostCPUReport is the host CPU section's figures.
type hostCPUReport struct {
	cases []hostCPU
	floor hostFloor
}

// hostCPUTasks is how many copies of the task a timed play runs, per
// tool: the play's own cost (connecting, a ping), measured beside each
// such play, is taken off, the rest divided among them.
var hostCPUTasks = map[string]int{"tender": 40, "ansible": 5}

// measureHostCPU times each case's no-op task on the fleet's first host
// (inventory inv1 holds it alone), rounds times per tool, and returns
// the medians per task.
func measureHostCPU(f *fleet, inv1 string, rounds int) (*hostCPUReport, error) {
	usage, err := containerCPU(f, f.ports[0])
	if err != nil {
		return nil, err
	}
	floor, err := measureFloor(f, usage, rounds)
	if err != nil {
		return nil, err
	}
	tmpl := filepath.Join(f.dir, "hostcpu.j2")
	if err := os.WriteFile(tmpl, []byte("host={{ inventory_hostname }}\n"), 0o644); err != nil {
		return nil, err
	}
	kh := filepath.Join(f.dir, "known_hosts-hostcpu")
	tools := map[string]func(pb string) error{
		"tender": func(pb string) error {
			_, err := timed(filepath.Join(f.dir, "tender"), []string{"NO_COLOR=1"}, "play", "-i", inv1, pb,
				"--host-key-checking", "accept-new", "--known-hosts", kh)
			return err
		},
		"ansible": func(pb string) error {
			_, err := timed("ansible-playbook", []string{"ANSIBLE_PIPELINING=1", "ANSIBLE_HOST_KEY_CHECKING=0", "ANSIBLE_NOCOLOR=1",
				"ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3"}, "-i", inv1, pb)
			return err
		},
	}
	// once is the host CPU of one run of pb.
	once := func(tool, pb string) (time.Duration, error) {
		before, err := usage()
		if err != nil {
			return 0, err
		}
		if err := tools[tool](pb); err != nil {
			return 0, err
		}
		after, err := usage()
		return after - before, err
	}
	// cost is the median, over rounds, of what a run of pb costs the
	// host more than a run of base just before or after it (the order
	// alternates), after one run of each that makes the state. Each
	// round's pair is taken together, as this machine's speed drifts
	// (by half within an hour, at times) more than a task costs.
	cost := func(tool, pb, base string) (time.Duration, error) {
		for _, p := range []string{base, pb} {
			if err := tools[tool](p); err != nil {
				return 0, err
			}
		}
		var ds []time.Duration
		for i := range rounds {
			pair := [2]string{base, pb}
			if i%2 == 1 {
				pair = [2]string{pb, base}
			}
			var got [2]time.Duration
			for j, p := range pair {
				d, err := once(tool, p)
				if err != nil {
					return 0, err
				}
				got[j] = d
			}
			if i%2 == 1 {
				got[0], got[1] = got[1], got[0]
			}
			ds = append(ds, got[1]-got[0])
		}
		return median(ds), nil
	}
	play := func(name, task string, n int) (string, error) {
		var b strings.Builder
		b.WriteString("- hosts: all\n  gather_facts: false\n  tasks:\n    - ping:\n    - file: {path: /tmp/hc, state: directory}\n")
		for range n {
			b.WriteString("    - " + strings.ReplaceAll(task, "TEMPLATE", tmpl) + "\n")
		}
		pb := filepath.Join(f.dir, "hostcpu-"+strings.ReplaceAll(name, " ", "_")+".yml")
		return pb, os.WriteFile(pb, []byte(b.String()), 0o644)
	}
	base := map[string]string{}
	for tool := range tools {
		if base[tool], err = play("base-"+tool, "", 0); err != nil {
			return nil, err
		}
	}
	var out []hostCPU
	for _, c := range hostCPUCases {
		r := hostCPU{module: c.module}
		for tool, per := range map[string]*time.Duration{"tender": &r.tender, "ansible": &r.ansible} {
			n := hostCPUTasks[tool]
			pb, err := play(tool+"-"+c.module, c.task, n)
			if err != nil {
				return nil, err
			}
			d, err := cost(tool, pb, base[tool])
			if err != nil {
				return nil, err
			}
			*per = max(0, d) / time.Duration(n)
		}
		fmt.Printf("host CPU per no-op task: %-16s tender %v, ansible %v\n", c.module, r.tender, r.ansible)
		out = append(out, r)
	}
	return &hostCPUReport{cases: out, floor: floor}, nil
}

// measureFloor measures the host's fixed costs (hostFloor): medians of
// rounds, each of 5 connections or of 100 programs or forks in one shell
// less the same loop doing nothing.
func measureFloor(f *fleet, usage func() (time.Duration, error), rounds int) (hostFloor, error) {
	ssh := func(command string) error {
		h, p := f.hostPort(0)
		_, err := sh("ssh", "-q", "-i", f.key, "-p", p, "-o", "BatchMode=yes",
			"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "ControlMaster=no",
			"-o", "ControlPath=none", "root@"+h, command)
		return err
	}
	cost := func(n int, run func() error) (time.Duration, error) {
		var ds []time.Duration
		for range rounds {
			before, err := usage()
			if err != nil {
				return 0, err
			}
			if err := run(); err != nil {
				return 0, err
			}
			after, err := usage()
			if err != nil {
				return 0, err
			}
			ds = append(ds, (after-before)/time.Duration(n))
		}
		return median(ds), nil
	}
	var fl hostFloor
	var err error
	if fl.conn, err = cost(5, func() error {
		for range 5 {
			if err := ssh("true"); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return fl, err
	}
	loop := func(body string) func() error {
		return func() error { return ssh("i=0; while [ $i -lt 100 ]; do " + body + "; i=$((i+1)); done") }
	}
	empty, err := cost(100, loop(":"))
	if err != nil {
		return fl, err
	}
	if fl.program, err = cost(100, loop("/bin/true")); err != nil {
		return fl, err
	}
	if fl.fork, err = cost(100, loop("( : )")); err != nil {
		return fl, err
	}
	fl.program, fl.fork = max(0, fl.program-empty), max(0, fl.fork-empty)
	fmt.Printf("host floor: connection %v, program %v, fork %v\n", fl.conn, fl.program, fl.fork)
	return fl, nil
}

// containerCPU returns a reader of the CPU time the container that
// publishes sshd on port has used so far, from its cgroup (v1 cpuacct or
// v2 cpu.stat, under the cgroupfs or the systemd driver).
func containerCPU(f *fleet, port int) (func() (time.Duration, error), error) {
	id, err := containerOf(f, port)
	if err != nil {
		return nil, err
	}
	full, err := sh("docker", "inspect", "--format", "{{.Id}}", id)
	if err != nil {
		return nil, err
	}
	id = strings.TrimSpace(full)
	for _, p := range []string{
		"/sys/fs/cgroup/cpuacct/docker/" + id + "/cpuacct.usage",
		"/sys/fs/cgroup/cpu,cpuacct/docker/" + id + "/cpuacct.usage",
		"/sys/fs/cgroup/system.slice/docker-" + id + ".scope/cpu.stat",
		"/sys/fs/cgroup/docker/" + id + "/cpu.stat",
	} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		return func() (time.Duration, error) { return readCPU(p) }, nil
	}
	return nil, fmt.Errorf("cannot find the cgroup of container %.12s", id)
}

// readCPU reads a cgroup's CPU time: cpuacct.usage (nanoseconds) or
// cpu.stat's usage_usec.
func readCPU(path string) (time.Duration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if strings.HasSuffix(path, "cpuacct.usage") {
		n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		return time.Duration(n), err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "usage_usec "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return time.Duration(n) * time.Microsecond, err
		}
	}
	return 0, fmt.Errorf("%s: no usage_usec", path)
}

// hostCPUBudget is the most a no-op task may cost the host (issue 32).
const hostCPUBudget = 2 * time.Millisecond

// Markers around the host CPU section of docs/BENCHMARKS.md, which
// `go run ./e2e/bench -hostcpu` rewrites alone.
const (
	hostCPUStart = "<!-- hostcpu: written by make bench, or alone by go run ./e2e/bench -hostcpu -->"
	hostCPUEnd   = "<!-- hostcpu: end -->"
)

// writeHostCPUSection replaces the host CPU section of the file at path
// (or puts it before the scale section, else at the end).
func writeHostCPUSection(path string, cpu *hostCPUReport, rounds int) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var b strings.Builder
	writeHostCPU(&b, cpu, rounds)
	text, section := string(old), strings.TrimPrefix(b.String(), "\n")
	if i, j := strings.Index(text, hostCPUStart), strings.Index(text, hostCPUEnd); i >= 0 && j > i {
		text = text[:i] + section + text[j+len(hostCPUEnd)+1:]
	} else if i := strings.Index(text, scaleSection); i >= 0 {
		text = text[:i] + section + "\n" + text[i:]
	} else {
		text += "\n" + section
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// writeHostCPU writes the host CPU section.
func writeHostCPU(b *strings.Builder, cpu *hostCPUReport, rounds int) {
	fmt.Fprintf(b, "\n"+hostCPUStart+"\n## Host CPU per no-op task\n\n"+
		"Written on %s by `go run ./e2e/bench -hostcpu` (or `make bench`), on the machine above.\n\n", time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintf(b,
		"What one task that changes nothing costs the host: the CPU time of the host's container (its sshd, shells and the commands "+
			"they run), read from the container's cgroup before and after a play of %d copies of the task (tender) or %d (ansible-playbook, "+
			"pipelining on), on the fleet's first host, less that of the same play with no copies (a ping) run just before or after it, "+
			"divided among them. Medians of %d such pairs each, after one run of each that made the state. On hosts that share the controller's cores, as here, this is "+
			"what bounds a run's wall time; tender's budget is %v per task.\n\n", hostCPUTasks["tender"], hostCPUTasks["ansible"], rounds, hostCPUBudget)
	b.WriteString("| module | ansible-playbook | tender | tender uses less by | within budget |\n|---|---:|---:|---:|---|\n")
	for _, c := range cpu.cases {
		ratio, within := "n/a", "yes"
		if c.tender > 0 {
			ratio = fmt.Sprintf("%.0f×", c.ansible.Seconds()/c.tender.Seconds())
		}
		if c.tender > hostCPUBudget {
			within = "no"
		}
		fmt.Fprintf(b, "| %s | %.1f ms | %.2f ms | %s | %s |\n", c.module, ms(c.ansible), ms(c.tender), ratio, within)
	}
	fl := cpu.floor
	fmt.Fprintf(b, "\nWhat any tool pays on this host, for scale (medians of %d): one SSH connection (OpenSSH's `ssh` running `true`: "+
		"sshd's key exchange, login and session) **%.1f ms**; one program started from a shell (`/bin/true`) %.2f ms; one fork of the "+
		"shell (`( : )`) %.2f ms. A no-op task of tender's starts one fork on the host (the task's subshell) and the programs its module "+
		"cannot do without (`stat` for a file's mode and owner, one for all the copies, templates and files sent in one write, "+
		"`sha1sum` for a copied file over 1 KiB): %s. Where hosts share the "+
		"controller's %d cores, as in the side-by-side table, N hosts' connections alone take "+
		"N × %.1f ms / %d of wall time: %.2f s for 50 hosts, for any tool that connects once to each host.\n",
		rounds, ms(fl.conn), ms(fl.program), ms(fl.fork), budgetNote(fl.fork+fl.program), runtime.NumCPU(), ms(fl.conn), runtime.NumCPU(),
		50*fl.conn.Seconds()/float64(runtime.NumCPU()))
	b.WriteString(hostCPUEnd + "\n")
}

// budgetNote compares the least a no-op task can cost the host (one fork
// and one program) with the budget.
func budgetNote(least time.Duration) string {
	if least > hostCPUBudget {
		return fmt.Sprintf("here that least, a fork and one program, costs %.2f ms, above the %.0f ms budget", ms(least), ms(hostCPUBudget))
	}
	return fmt.Sprintf("here that least, a fork and one program, costs %.2f ms, within the %.0f ms budget; the rest of a task's "+
		"figure is what its frame costs sshd and the shell", ms(least), ms(hostCPUBudget))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
