package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// scenario is one side-by-side measure: hosts inventory hosts over the
// fleet's containers, behind delaying proxies when latency is set.
type scenario struct {
	hosts   int
	latency time.Duration
	rounds  int
}

func (s scenario) name() string {
	if s.latency == 0 {
		return "loopback"
	}
	return fmt.Sprintf("%v round trip", s.latency)
}

// result is one scenario's medians for each tool, first and no-op run,
// and the turns per host the proxies counted (none on loopback).
type result struct {
	sc              scenario
	tender, ansible [2]time.Duration
	tTurns, aTurns  [2]float64
	handshake       float64 // tender's turns to connect (a play of one task less its task)
}

// inventory writes the scenario's inventory: host i on container i mod
// the containers, through its container's proxy when there is one.
func (f *fleet) inventory(sc scenario, addrs []string) (string, error) {
	inv := filepath.Join(f.dir, fmt.Sprintf("hosts-%d-%s", sc.hosts, strings.ReplaceAll(sc.name(), " ", "_")))
	var b strings.Builder
	for i := range sc.hosts {
		h, p, _ := net.SplitHostPort(addrs[i%len(addrs)])
		fmt.Fprintf(&b, "h%d ansible_host=%s ansible_port=%s\n", i+1, h, p)
	}
	fmt.Fprintf(&b, "\n[all:vars]\nansible_user=root\nansible_ssh_private_key_file=%s\n", f.key)
	return inv, os.WriteFile(inv, []byte(b.String()), 0o644)
}

// sideBySide measures sc: the proxies (one per container) are made for it
// and closed after.
func sideBySide(f *fleet, sc scenario) (result, string, error) {
	addrs := f.addrs
	var proxies []*sshtest.DelayProxy
	if sc.latency > 0 {
		addrs = nil
		for _, a := range f.addrs {
			px, err := sshtest.NewDelayProxy(a)
			if err != nil {
				return result{}, "", err
			}
			defer px.Close()
			px.SetLatency(sc.latency)
			proxies = append(proxies, px)
			addrs = append(addrs, fmt.Sprintf("127.0.0.1:%d", px.Port()))
		}
	}
	inv, err := f.inventory(sc, addrs)
	if err != nil {
		return result{}, "", err
	}
	turns := func() int64 {
		var n int64
		for _, p := range proxies {
			n += p.Turns()
		}
		return n
	}
	r, err := measure(f, sc, inv, turns)
	return r, inv, err
}

// measure runs each tool sc.rounds times, alternating which goes first;
// each run is a fresh run (new run_id) followed by the same run again
// (no-op). turns reads the proxies' count.
func measure(f *fleet, sc scenario, inv string, turns func() int64) (result, error) {
	var times [2][2][]time.Duration // tool, run
	var trips [2][2][]float64
	kh := filepath.Join(f.dir, fmt.Sprintf("known_hosts-%d-%s", sc.hosts, strings.ReplaceAll(sc.name(), " ", "_")))
	tenderArgs := []string{"-i", inv, "--forks", fmt.Sprint(sc.hosts), "--host-key-checking", "accept-new", "--known-hosts", kh}
	tools := [2]func(pb string, extra ...string) (time.Duration, error){
		func(pb string, extra ...string) (time.Duration, error) {
			return timed(filepath.Join(f.dir, "tender"), []string{"NO_COLOR=1"}, append(append([]string{"play", pb}, tenderArgs...), extra...)...)
		},
		func(pb string, extra ...string) (time.Duration, error) {
			return timed("ansible-playbook", []string{"ANSIBLE_PIPELINING=1", "ANSIBLE_HOST_KEY_CHECKING=0", "ANSIBLE_NOCOLOR=1",
				fmt.Sprintf("ANSIBLE_FORKS=%d", sc.hosts), "ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3"},
				append([]string{"-i", inv, pb}, extra...)...)
		},
	}
	var r result
	r.sc = sc
	// The handshake: a play of one command, less that command's turn.
	one := filepath.Join(f.dir, "one.yml")
	if err := os.WriteFile(one, []byte("- hosts: all\n  gather_facts: false\n  tasks:\n    - command: \"true\"\n"), 0o644); err != nil {
		return r, err
	}
	before := turns()
	if _, err := tools[0](one); err != nil {
		return r, err
	}
	r.handshake = float64(turns()-before)/float64(sc.hosts) - 1
	for round := range sc.rounds {
		order := []int{0, 1}
		if round%2 == 1 {
			order = []int{1, 0}
		}
		for _, tool := range order {
			id := fmt.Sprintf("%d-%s-%d-%d", sc.hosts, strings.ReplaceAll(sc.name(), " ", ""), round, time.Now().UnixNano())
			for run := range 2 {
				before := turns()
				d, err := tools[tool]("e2e/bench/site.yml", "-e", "run_id="+id)
				if err != nil {
					return r, err
				}
				times[tool][run] = append(times[tool][run], d)
				trips[tool][run] = append(trips[tool][run], float64(turns()-before)/float64(sc.hosts))
			}
		}
	}
	for run := range 2 {
		r.tender[run], r.ansible[run] = median(times[0][run]), median(times[1][run])
		r.tTurns[run], r.aTurns[run] = medianF(trips[0][run]), medianF(trips[1][run])
	}
	return r, nil
}

func medianF(xs []float64) float64 {
	ds := make([]time.Duration, len(xs))
	for i, x := range xs {
		ds[i] = time.Duration(x * 1000)
	}
	return float64(median(ds)) / 1000
}

// writeSides writes the side-by-side table.
func writeSides(b *strings.Builder, rs []result) {
	b.WriteString("| hosts | network | run | ansible-playbook | tender | tender is faster by | round trips per host: ansible-playbook | tender |\n" +
		"|---:|---|---|---:|---:|---:|---:|---:|\n")
	for _, r := range rs {
		for i, kind := range []string{"first run", "no-op run"} {
			trips := "| – | –"
			if r.sc.latency > 0 {
				trips = fmt.Sprintf("| %.1f | %.1f (handshake %.0f + %.1f)", r.aTurns[i], r.tTurns[i], r.handshake, r.tTurns[i]-r.handshake)
			}
			fmt.Fprintf(b, "| %d | %s | %s | %.2f s | %.2f s | %.1f× %s |\n", r.sc.hosts, r.sc.name(), kind,
				r.ansible[i].Seconds(), r.tender[i].Seconds(), r.ansible[i].Seconds()/r.tender[i].Seconds(), trips)
		}
	}
}
