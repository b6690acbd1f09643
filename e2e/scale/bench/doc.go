package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Markers of the scale section in docs/BENCHMARKS.md: everything from
// sectionStart to sectionEnd is rewritten, the rest is kept (e2e/bench
// keeps this section when it rewrites the file).
const (
	sectionStart = "<!-- scale: written by make bench-scale -->"
	sectionEnd   = "<!-- scale: end -->"
)

// writeSection (re)writes the scale section of path.
func writeSection(path string, rs []result, extra []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n## Scale: a simulated fleet\n\n", sectionStart)
	cmd := "make bench-scale"
	if len(os.Args) > 1 {
		cmd = "go run ./e2e/scale/bench " + strings.Join(os.Args[1:], " ")
	}
	fmt.Fprintf(&b, "Written by `%s` on %s.\n\nMachine: %s.\n\n", cmd, time.Now().UTC().Format("2006-01-02"), machine())
	flags := "`--keep-going`, otherwise tender's defaults (forks 50, batch 100)"
	if len(extra) > 0 {
		flags = "`--keep-going " + strings.Join(extra, " ") + "`"
	}
	fmt.Fprintf(&b, "*deploy*: `tender agent deploy` (the built binary, %s) deploys `e2e/scale/bundle` (5 tasks, 2 tracked files, one a 256 KiB package) to N simulated hosts served by `e2e/scale/fleetd` in a process of its own (*first*), then runs again at once (*no-op*), which should find every host up to date (ledger, one probe script per host) and deploy nothing. ", flags)
	gather := "Ansible's default fact-gathering timeout (10 s)"
	if gatherTimeoutSecs > 0 {
		gather = fmt.Sprintf("`ANSIBLE_GATHER_TIMEOUT=%d` (a fleet that shares the controller's two cores gathers slowly)", gatherTimeoutSecs)
	}
	fmt.Fprintf(&b, "*play*: `tender play --forks N` of `e2e/bench/site.yml` (facts, then 10 tasks) on every host at once, first and again (nothing changes), with %s. ", gather)
	b.WriteString("Times and memory are the tender process's alone: wall time, CPU time (user + system) and peak RSS (`ru_maxrss` from wait4); *fleet CPU* is the fleet process's and its children's (the hosts' shells and sftp-servers) over the same run, on the same two cores. What the simulation proves, and what it does not: `e2e/scale/README.md`.\n\n")
	if pngPath != "" && strings.HasPrefix(pngPath, "docs/") {
		fmt.Fprintf(&b, "![wall time and peak RSS against hosts](%s)\n\n", strings.TrimPrefix(pngPath, "docs/"))
	}
	b.WriteString("| hosts | fleet RTT | run | wall | tender CPU | tender peak RSS | RSS per host | fleet CPU | recap |\n|---:|---:|---|---:|---:|---:|---:|---:|---|\n")
	var failures []string
	for _, r := range rs {
		recap := strings.TrimSpace(recapRe.ReplaceAllStringFunc(r.recap, func(s string) string {
			if i := strings.Index(s, ": "); i >= 0 {
				return s[i+2:]
			}
			return s
		}))
		fmt.Fprintf(&b, "| %d | %v | %s | %.2f s | %.2f s | %.0f MiB | %.3f MiB | %.2f s | %s |\n", r.hosts, r.rtt, r.run, r.wall.Seconds(), r.cpu.Seconds(),
			float64(r.maxRSS)/1024, float64(r.maxRSS)/1024/float64(r.hosts), r.fleetCPU.Seconds(), recap)
		for _, f := range r.failures {
			failures = append(failures, fmt.Sprintf("%d hosts at %v, %s: `%s`", r.hosts, r.rtt, r.run, f))
		}
	}
	if len(failures) > 0 {
		b.WriteString("\nFailed hosts (the first few of each run):\n\n- " + strings.Join(failures, "\n- ") + "\n")
	}
	b.WriteString("\nThe fleet served (over both runs): ")
	var served []string
	for _, r := range rs {
		if r.fleetServed != "" {
			served = append(served, fmt.Sprintf("%d hosts at %v: %s", r.hosts, r.rtt, r.fleetServed))
		}
	}
	b.WriteString(strings.Join(served, "; ") + ".\n" + sectionEnd + "\n")

	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	doc := string(old)
	if i := strings.Index(doc, sectionStart); i >= 0 {
		rest := ""
		if j := strings.Index(doc[i:], sectionEnd); j >= 0 {
			rest = strings.TrimPrefix(doc[i+j+len(sectionEnd):], "\n")
		}
		doc = doc[:i] + b.String() + rest
	} else {
		if doc != "" && !strings.HasSuffix(doc, "\n\n") {
			doc = strings.TrimRight(doc, "\n") + "\n\n"
		}
		doc += b.String()
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}

// machine describes this machine: cores, memory, kernel.
func machine() string {
	var parts []string
	if o, err := exec.Command("nproc").Output(); err == nil {
		parts = append(parts, strings.TrimSpace(string(o))+" cores")
	}
	if o, err := exec.Command("sh", "-c", "awk '/MemTotal/ {printf \"%.0f GiB RAM\", $2/1048576}' /proc/meminfo").Output(); err == nil {
		parts = append(parts, strings.TrimSpace(string(o)))
	}
	if o, err := exec.Command("uname", "-sr").Output(); err == nil {
		parts = append(parts, strings.TrimSpace(string(o)))
	}
	if o, err := exec.Command("go", "env", "GOVERSION").Output(); err == nil {
		parts = append(parts, strings.TrimSpace(string(o)))
	}
	parts = append(parts, "shared with other work while measured")
	return strings.Join(parts, ", ")
}
