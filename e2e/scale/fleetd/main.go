// Command fleetd serves a simulated fleet of SSH hosts on 127.0.0.1 for
// scale tests of the controller (see e2e/scale/README.md): one listener,
// one ed25519 host key and one root directory per host, commands run with
// /bin/sh in that directory, SFTP served by fleetd itself re-run as a
// subsystem program in that directory. It writes ROOT/inventory.ini,
// ROOT/known_hosts and ROOT/id_ed25519 (the client key every host
// accepts), prints "ready" on stdout, and serves until SIGINT or SIGTERM.
// A fleet of more than 2,000 hosts is served by several fleetd processes
// (-procs), each with its own open-files limit.
//
//	fleetd -hosts 1000 -root /tmp/fleet -rtt 20ms -bandwidth 10M -hang 0.01
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// sftpServer is the first argument that makes fleetd an sftp-server on
// its stdin and stdout, the subsystem program of its hosts.
const sftpServer = "sftp-server"

func main() {
	if len(os.Args) == 2 && os.Args[1] == sftpServer {
		if err := sshtest.ServeSFTP(stdio{}); err != nil {
			fmt.Fprintln(os.Stderr, "fleetd sftp-server:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fleetd:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		opts  sshtest.FleetOptions
		bw    string
		procs int
	)
	flag.IntVar(&opts.Hosts, "hosts", 10, "how many hosts to serve")
	flag.StringVar(&opts.Root, "root", "", "the fleet's directory: hosts' roots, inventory.ini, known_hosts, id_ed25519 (required)")
	flag.DurationVar(&opts.Latency, "rtt", 0, "round-trip time added to every exchange")
	flag.StringVar(&bw, "bandwidth", "", "bytes per second per connection and direction (suffix K or M: 1024s), none when empty")
	flag.DurationVar(&opts.HandshakeDelay, "handshake-delay", 0, "delay before each connection's SSH version exchange")
	flag.Float64Var(&opts.DropRate, "drop", 0, "fraction of connections closed before the handshake")
	flag.Float64Var(&opts.HangRate, "hang", 0, "fraction of hosts that accept connections and never answer")
	flag.Uint64Var(&opts.Seed, "seed", 1, "picks the hung hosts")
	flag.IntVar(&procs, "procs", 0, fmt.Sprintf("processes serving the fleet (0: one per %d hosts), each with its own open-files limit", hostsPerProcess))
	flag.IntVar(&opts.First, "first", 1, "the number of the first host (for the processes of a fleet split across several)")
	flag.StringVar(&opts.FilesDir, "files", "", "where inventory.ini and known_hosts go (default: -root)")
	flag.Parse()
	if opts.Root == "" || flag.NArg() > 0 {
		flag.Usage()
		return fmt.Errorf("-root is required, and no arguments")
	}
	var err error
	if opts.Bandwidth, err = parseBytes(bw); err != nil {
		return err
	}
	if procs == 0 {
		procs = (opts.Hosts + hostsPerProcess - 1) / hostsPerProcess
	}
	if procs > 1 {
		knobs := []string{"-rtt", opts.Latency.String(), "-handshake-delay", opts.HandshakeDelay.String(),
			"-drop", fmt.Sprint(opts.DropRate), "-hang", fmt.Sprint(opts.HangRate)}
		if bw != "" {
			knobs = append(knobs, "-bandwidth", bw)
		}
		return runShards(opts, procs, knobs)
	}
	if note, err := raiseNoFile(uint64(opts.Hosts)); err != nil {
		return err
	} else if note != "" {
		fmt.Fprintln(os.Stderr, "fleetd:", note)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	opts.SFTPCommand = []string{self, sftpServer}
	start := time.Now()
	f, err := sshtest.NewFleet(opts)
	if err != nil {
		return err
	}
	fmt.Printf("ready: %d hosts in %v, inventory %s, known_hosts %s, key %s\n",
		len(f.Servers), time.Since(start).Round(time.Millisecond), f.Inventory, f.KnownHosts, f.ClientKey)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	st := f.Stats()
	err = f.Close()
	fmt.Printf("served: %d connections, %d channels, %d sessions, %d requests, %d execs\n",
		st.Conns, st.Channels, st.Sessions, st.Requests, st.Execs)
	return err
}

// parseBytes reads a byte rate: a number, optionally suffixed K or M.
func parseBytes(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	mul := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mul, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mul, s = 1<<20, strings.TrimSuffix(s, "M")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("-bandwidth %q: want a positive number of bytes, with K or M", s)
	}
	return n * mul, nil
}

// stdio is fleetd's stdin and stdout as one stream, for sftp-server.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdout.Close() }
