package sshtest

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// FleetOptions configures a Fleet. The latency and fault knobs apply to
// every host alike, as in Options.
type FleetOptions struct {
	// Hosts is how many simulated hosts to serve.
	Hosts int
	// Root is the fleet's directory: each host's root is Root/hostNNNNN,
	// and the inventory, known_hosts and client key are written there.
	Root string
	// Latency is the round-trip time added to every exchange (all of it
	// on what the hosts receive; see Options.Latency).
	Latency time.Duration
	// HandshakeDelay, Bandwidth and DropRate are as in Options.
	HandshakeDelay time.Duration
	Bandwidth      int64
	DropRate       float64
	// HangRate is the fraction of hosts (rounded down) that accept
	// connections and never answer (Options.Hang), picked by Seed.
	HangRate float64
	// Seed picks the hung hosts, so a run can be repeated.
	Seed uint64
	// SFTPCommand is as in Options; run in each host's root.
	SFTPCommand []string
	// First is the number of the first host (host00001 when 0 or 1): a
	// fleet split across processes numbers each part on from the last.
	First int
	// FilesDir is where inventory.ini and known_hosts are written (Root
	// when empty); the client key is always Root/id_ed25519.
	FilesDir string
}

// Fleet is many simulated hosts in one process: one Server per host, each
// on its own port of 127.0.0.1 with its own ed25519 host key, running the
// commands it gets with /bin/sh in its own root directory (their working
// directory and HOME). It writes what a controller needs to reach them:
// an INI inventory, a known_hosts file and a client key they all accept.
type Fleet struct {
	// Servers are the hosts, in inventory order.
	Servers []*Server
	// Names are the hosts' inventory names (hostNNNNN), Dirs their roots.
	Names, Dirs []string
	// Hung tells the hosts that hang.
	Hung []bool
	// Inventory, KnownHosts and ClientKey are the files written under
	// Root: inventory.ini, known_hosts and id_ed25519 (an OpenSSH private
	// key, reused when it exists).
	Inventory, KnownHosts, ClientKey string
}

// NewFleet creates the hosts' directories, starts their servers and
// writes the inventory, known_hosts and client key. On error it stops
// what it started.
func NewFleet(opts FleetOptions) (_ *Fleet, err error) {
	if opts.Hosts < 1 {
		return nil, errors.New("sshtest: a fleet needs at least one host")
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	files := root
	if opts.FilesDir != "" {
		if files, err = filepath.Abs(opts.FilesDir); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(files, 0o755); err != nil {
			return nil, err
		}
	}
	f := &Fleet{
		Inventory:  filepath.Join(files, "inventory.ini"),
		KnownHosts: filepath.Join(files, "known_hosts"),
		ClientKey:  filepath.Join(root, "id_ed25519"),
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	client, err := EnsureClientKey(f.ClientKey)
	if err != nil {
		return nil, err
	}
	f.Hung = make([]bool, opts.Hosts)
	rng := mrand.New(mrand.NewPCG(opts.Seed, 0x5ca1e))
	for _, i := range rng.Perm(opts.Hosts)[:int(opts.HangRate*float64(opts.Hosts))] {
		f.Hung[i] = true
	}
	first := max(opts.First, 1)
	for i := range opts.Hosts {
		name := fmt.Sprintf("host%05d", first+i)
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		s, err := New(Options{
			AuthorizedKeys: []ssh.PublicKey{client}, Latency: opts.Latency,
			Dir: dir, SFTPCommand: opts.SFTPCommand, DropRate: opts.DropRate,
			HandshakeDelay: opts.HandshakeDelay, Bandwidth: opts.Bandwidth, Hang: f.Hung[i],
		})
		if err != nil {
			return nil, fmt.Errorf("sshtest: host %d of %d: %w", i+1, opts.Hosts, err)
		}
		f.Servers = append(f.Servers, s)
		f.Names = append(f.Names, name)
		f.Dirs = append(f.Dirs, dir)
	}
	return f, f.writeFiles()
}

// writeFiles writes the inventory and known_hosts.
func (f *Fleet) writeFiles() error {
	write := func(path string, line func(i int, s *Server) string) error {
		fh, err := os.Create(path)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(fh)
		if path == f.Inventory {
			w.WriteString("[fleet]\n")
		}
		for i, s := range f.Servers {
			w.WriteString(line(i, s) + "\n")
		}
		if err := w.Flush(); err != nil {
			fh.Close()
			return err
		}
		return fh.Close()
	}
	err := write(f.Inventory, func(i int, s *Server) string {
		return fmt.Sprintf("%s ansible_host=%s ansible_port=%d", f.Names[i], s.Host(), s.Port())
	})
	if err != nil {
		return err
	}
	return write(f.KnownHosts, func(i int, s *Server) string {
		return knownhosts.Line([]string{knownhosts.Normalize(s.Addr())}, s.HostKey())
	})
}

// EnsureClientKey reads the ed25519 private key at path, or creates it
// (and path.pub), and returns its public half.
func EnsureClientKey(path string) (ssh.PublicKey, error) {
	if data, err := os.ReadFile(path); err == nil {
		signer, err := ssh.ParsePrivateKey(data)
		if err != nil {
			return nil, fmt.Errorf("sshtest: client key %s: %w", path, err)
		}
		return signer.PublicKey(), nil
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := ssh.MarshalPrivateKey(priv, "tender sshtest fleet")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		return nil, err
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return sp, os.WriteFile(path+".pub", ssh.MarshalAuthorizedKey(sp), 0o644)
}

// Stats sums the counters of every host.
func (f *Fleet) Stats() Stats {
	var t Stats
	for _, s := range f.Servers {
		st := s.Stats()
		t.Conns += st.Conns
		t.Channels += st.Channels
		t.Sessions += st.Sessions
		t.Requests += st.Requests
		t.Execs += st.Execs
		t.Writes += st.Writes
	}
	return t
}

// Close stops every host, all at once.
func (f *Fleet) Close() error {
	errs := make(chan error, len(f.Servers))
	for _, s := range f.Servers {
		go func() { errs <- s.Close() }()
	}
	var err error
	for range f.Servers {
		err = errors.Join(err, <-errs)
	}
	return err
}
