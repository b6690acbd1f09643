package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// hostsPerProcess is how many hosts one fleetd process serves by default:
// at most about 8 descriptors a connected host (its connection, its
// shell's and its sftp-server's pipes, a fork's pipes while it starts)
// plus one listener a host, which a soft open-files limit of 20,000 (what
// an unprivileged container may not raise) bears at 1,000 connected hosts
// a process.
const hostsPerProcess = 2000

// shard is one fleetd child serving a part of the fleet.
type shard struct {
	cmd   *exec.Cmd
	lines *bufio.Scanner
	files string
}

// runShards serves the fleet from procs child processes, each a fleetd of
// its own with a part of the hosts (numbered on from the previous part),
// the same root, client key and knobs; it joins their inventories and
// known_hosts into the root's, as one fleetd writes them, and sums what
// they served when stopped.
func runShards(opts sshtest.FleetOptions, procs int, knobs []string) error {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	if _, err := sshtest.EnsureClientKey(filepath.Join(root, "id_ed25519")); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	start := time.Now()
	per := (opts.Hosts + procs - 1) / procs
	var shards []*shard
	stopAll := func() {
		for _, sh := range shards {
			sh.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	for i := 0; i*per < opts.Hosts; i++ {
		n := min(per, opts.Hosts-i*per)
		files := filepath.Join(root, ".shards", fmt.Sprint(i))
		args := append([]string{"-hosts", fmt.Sprint(n), "-first", fmt.Sprint(i*per + 1), "-root", root,
			"-files", files, "-procs", "1", "-seed", fmt.Sprint(opts.Seed + uint64(i))}, knobs...)
		cmd := exec.Command(self, args...)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			stopAll()
			return err
		}
		if err := cmd.Start(); err != nil {
			stopAll()
			return err
		}
		sh := &shard{cmd: cmd, lines: bufio.NewScanner(out), files: files}
		shards = append(shards, sh)
		if !sh.lines.Scan() || !strings.HasPrefix(sh.lines.Text(), "ready:") {
			stopAll()
			return fmt.Errorf("fleet process %d did not start: %q", i, sh.lines.Text())
		}
	}
	inv, known := filepath.Join(root, "inventory.ini"), filepath.Join(root, "known_hosts")
	if err := joinFiles(inv, "[fleet]\n", shards, "inventory.ini"); err != nil {
		stopAll()
		return err
	}
	if err := joinFiles(known, "", shards, "known_hosts"); err != nil {
		stopAll()
		return err
	}
	fmt.Printf("ready: %d hosts in %v (%d processes), inventory %s, known_hosts %s, key %s\n",
		opts.Hosts, time.Since(start).Round(time.Millisecond), len(shards), inv, known, filepath.Join(root, "id_ed25519"))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	stopAll()
	var total [5]int64
	var errs []string
	for i, sh := range shards {
		for sh.lines.Scan() {
			var v [5]int64
			if _, err := fmt.Sscanf(sh.lines.Text(), "served: %d connections, %d channels, %d sessions, %d requests, %d execs",
				&v[0], &v[1], &v[2], &v[3], &v[4]); err == nil {
				for j := range v {
					total[j] += v[j]
				}
			}
		}
		if err := sh.cmd.Wait(); err != nil {
			errs = append(errs, fmt.Sprintf("fleet process %d: %v", i, err))
		}
	}
	fmt.Printf("served: %d connections, %d channels, %d sessions, %d requests, %d execs\n",
		total[0], total[1], total[2], total[3], total[4])
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// joinFiles writes path as header and then the lines of each shard's file
// name, without their own header.
func joinFiles(path, header string, shards []*shard, name string) error {
	var b strings.Builder
	b.WriteString(header)
	for _, sh := range shards {
		data, err := os.ReadFile(filepath.Join(sh.files, name))
		if err != nil {
			return err
		}
		b.WriteString(strings.TrimPrefix(string(data), header))
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
