// Package agents deploys agent bundles across a fleet, only where needed.
//
// A Bundle is a directory with a manifest (agent.yaml): the agent's name and
// version, how to tell it is up (a TCP port and/or a health command), the
// files it tracks (source in the bundle → destination on the host) and the
// playbook that installs it. A Deployer decides per host whether to deploy
// (see Decide), runs the bundle's playbook through provision.Runner on the
// hosts that need it, and records what it deployed in a Store (an MD5
// ledger), so a host whose files and agent are as recorded costs one round
// trip and nothing more.
//
// agents imports no concrete transport, no module registry and no store:
// the embedding program injects them (cmd/tender wires the SSH transport,
// the built-in modules and the ledger of agents/store, SQLite or
// PostgreSQL).
package agents

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/sandbox"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/vault"
)

// ManifestName is the manifest's file name inside a bundle directory.
const ManifestName = "agent.yaml"

// Probe says where the agent's port is probed from.
type Probe string

const (
	// ProbeHost probes from the host's own side: the port must be in
	// LISTEN state in the host's /proc/net/tcp or tcp6.
	ProbeHost Probe = "host"
	// ProbeController connects from the controller to the host's address.
	ProbeController Probe = "controller"
)

// Bundle is a loaded, validated agent bundle.
type Bundle struct {
	// Dir is the bundle's directory, absolute.
	Dir string
	// Name and Version identify the agent and this build of it.
	Name, Version string
	// Port is the TCP port the agent listens on (0: none, Health decides).
	Port int
	// Health is a shell command that exits 0 when the agent is healthy
	// ("" for none). It runs on the host during the probe and must change
	// nothing.
	Health string
	// Probe says where Port is probed from.
	Probe Probe
	// Become runs the probe as root (via sudo), for tracked files only
	// root can read, and Restart's service restart.
	Become bool
	// Service is the agent's service, as the service module names it
	// (manifest key service:): Deployer.Restart restarts it. Empty when
	// the manifest names none.
	Service string
	// Files are the tracked files, with their MD5s.
	Files []File
	// Playbook is the bundle's playbook, loaded and checked.
	Playbook *playbooks.Playbook
	// Vars are the bundle's default vars for its playbook: they become
	// play vars of every play that does not set them itself. A var
	// written as {value: V, secret: true} is V, and secret.
	Vars map[string]any
	// Secret names the vars marked secret: their values (as written and
	// as rendered for each host) never reach the ledger or the events.
	Secret []string
	// modules is the registry LoadBundle checked the playbook against:
	// the Deployer's unless its Options name another; vault the keyring
	// it decrypted with, likewise.
	modules *tasks.Registry
	vault   *vault.Keyring
}

// File is one tracked file of a bundle.
type File struct {
	// Src is the file's path on the controller, absolute.
	Src string
	// Dest is where it goes on the host (absolute).
	Dest string
	// Mode, Owner and Group are what the playbook should set ("" when the
	// manifest says nothing).
	Mode, Owner, Group string
	// MD5 is the hex MD5 of Src's content; Size its length.
	MD5  string
	Size int64
}

// Dests lists the destination paths of the tracked files, in manifest order.
func (b *Bundle) Dests() []string {
	out := make([]string, len(b.Files))
	for i, f := range b.Files {
		out[i] = f.Dest
	}
	return out
}

// LoadOptions control LoadBundle.
type LoadOptions struct {
	// Modules are the modules the bundle's playbook may use: the
	// registry its deploys run with, unless the Deployer's
	// Options.Modules names another. Required.
	Modules *tasks.Registry
	// Sandbox, when set, bounds which controller files the bundle may
	// name: its manifest, its tracked files and what its playbook reads
	// (playbooks.Options.Sandbox). Give the Deployer the same policy
	// (Options.Sandbox). Nil allows everything.
	Sandbox *sandbox.Policy
	// Vault decrypts the manifest's !vault vars and the playbook's
	// vaulted files at load; the Deployer uses it too unless its
	// Options.Vault names another. Give it a Censor, so that every
	// plaintext it opens is kept out of the ledger. Nil, or a keyring
	// without secrets, refuses vaulted data.
	Vault *vault.Keyring
}

var (
	reName    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	reService = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.@:-]*$`)
	manifestK = []string{"name", "version", "port", "health", "probe", "become", "service", "files", "playbook", "vars"}
	fileK     = []string{"src", "dest", "mode", "owner", "group"}
)

// LoadBundle reads and validates the bundle in dir: the manifest, every
// tracked file (hashed by streaming it, never held in memory whole) and the
// playbook. Every problem found is reported at once, each with the
// manifest's file:line:col, as a playbooks.ErrorList.
func LoadBundle(dir string, opts LoadOptions) (*Bundle, error) {
	if opts.Modules == nil {
		return nil, errors.New("agents: LoadOptions.Modules is nil: give the registry the deploys will run with")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, ManifestName)
	data, err := opts.Sandbox.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("agent bundle %s: %w", dir, err)
	}
	l := &manifestLoader{file: path, b: &Bundle{Dir: abs, Probe: ProbeHost}, sandbox: opts.Sandbox, decrypt: opts.Vault.DecryptFunc()}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, playbooks.YAMLError(path, data, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, playbooks.ErrorList{{Pos: playbooks.Pos{File: path, Line: 1, Col: 1}, Msg: "the manifest must be a mapping (name:, version:, files:, playbook: ...)"}}
	}
	l.manifest(doc.Content[0])
	// The playbook is checked even when the manifest has problems, so
	// that all of them are reported at once.
	if l.pbAt != nil {
		l.playbook(opts)
	}
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	l.b.modules, l.b.vault = opts.Modules, opts.Vault
	return l.b, nil
}

type manifestLoader struct {
	sandbox *sandbox.Policy
	decrypt func([]byte) ([]byte, error)
	file    string
	b       *Bundle
	errs    playbooks.ErrorList
	pbAt    *yaml.Node
}

func (l *manifestLoader) add(n *yaml.Node, format string, args ...any) {
	l.errs = append(l.errs, &playbooks.Error{Pos: playbooks.Pos{File: l.file, Line: n.Line, Col: n.Column}, Msg: fmt.Sprintf(format, args...)})
}

// scalar returns a scalar node's value as a string, or reports it.
func (l *manifestLoader) scalar(k, v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode {
		l.add(v, "%s must be a single value", k.Value)
		return "", false
	}
	return v.Value, true
}

func (l *manifestLoader) manifest(m *yaml.Node) {
	seen := map[string]bool{}
	var emptyHealth *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		seen[k.Value] = true
		switch k.Value {
		case "name":
			if s, ok := l.scalar(k, v); ok && !reName.MatchString(s) {
				l.add(v, "name %q: use letters, digits, '.', '_' and '-'", s)
			} else {
				l.b.Name = s
			}
		case "version":
			if s, ok := l.scalar(k, v); ok {
				if s == "" {
					l.add(v, "version must not be empty")
				}
				l.b.Version = s
			}
		case "port":
			if s, ok := l.scalar(k, v); ok {
				p, err := strconv.Atoi(s)
				if err != nil || p < 1 || p > 65535 {
					l.add(v, "port %q: want a TCP port number, 1 to 65535", s)
				}
				l.b.Port = p
			}
		case "health":
			var ok bool
			if l.b.Health, ok = l.scalar(k, v); ok && strings.TrimSpace(l.b.Health) == "" {
				emptyHealth = v
			}
		case "probe":
			if s, ok := l.scalar(k, v); ok {
				switch Probe(s) {
				case ProbeHost, ProbeController:
					l.b.Probe = Probe(s)
				default:
					l.add(v, "probe %q: want host or controller", s)
				}
			}
		case "become":
			if s, ok := l.scalar(k, v); ok {
				b, isBool := yaml11.Scalar(s).(bool)
				if !isBool {
					l.add(v, "become %q: want true or false", s)
				}
				l.b.Become = b
			}
		case "service":
			if s, ok := l.scalar(k, v); ok && !reService.MatchString(s) {
				l.add(v, "service %q: want a service's name (letters, digits, '@', '.', '_', ':' and '-')", s)
			} else {
				l.b.Service = s
			}
		case "files":
			l.files(v)
		case "playbook":
			if s, ok := l.scalar(k, v); ok {
				l.b.Playbook = &playbooks.Playbook{Path: s}
				l.pbAt = v
			}
		case "vars":
			dec := yaml11.NewDecoder()
			dec.Decrypt = l.decrypt
			val, err := dec.Value(v)
			vars, ok := val.(map[string]any)
			switch {
			case err != nil:
				l.add(v, "vars: %v", err)
			case val != nil && !ok:
				l.add(v, "vars must be a mapping")
			}
			l.b.Vars, l.b.Secret = secretVars(vars)
		default:
			l.add(k, "%q is not a manifest key (want one of %s)", k.Value, strings.Join(manifestK, ", "))
		}
	}
	for _, req := range []string{"name", "version", "files", "playbook"} {
		if !seen[req] {
			l.add(m, "the manifest needs %s:", req)
		}
	}
	switch {
	case seen["port"]:
	case emptyHealth != nil:
		l.add(emptyHealth, "health is empty and there is no port: give a command or a port:")
	case !seen["health"]:
		l.add(m, "the manifest needs port: or health: (how to tell the agent is up)")
	}
	if l.b.Probe == ProbeController && l.b.Port == 0 {
		l.add(m, "probe: controller needs port:")
	}
}

func (l *manifestLoader) files(v *yaml.Node) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		l.add(v, "files must be a non-empty list of {src, dest, mode, owner, group}")
		return
	}
	dests := map[string]bool{}
	for _, item := range v.Content {
		if item.Kind != yaml.MappingNode {
			l.add(item, "a file must be a mapping {src, dest, mode, owner, group}")
			continue
		}
		var f File
		var srcAt *yaml.Node
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, fv := item.Content[i], item.Content[i+1]
			s, ok := l.scalar(k, fv)
			if !ok {
				continue
			}
			switch k.Value {
			case "src":
				f.Src, srcAt = s, fv
			case "dest":
				f.Dest = s
				if i := strings.IndexFunc(s, unicode.IsControl); i >= 0 {
					r, _ := utf8.DecodeRuneInString(s[i:])
					l.add(fv, "dest %q holds a control character (%U), which a path must not", s, r)
				} else if !strings.HasPrefix(s, "/") || filepath.Clean(s) != s {
					l.add(fv, "dest %q must be a clean absolute path", s)
				} else if dests[s] {
					l.add(fv, "dest %q is tracked twice", s)
				}
				dests[s] = true
			case "mode":
				if _, err := strconv.ParseUint(s, 8, 32); err != nil || len(s) < 3 {
					l.add(fv, "mode %q: want an octal mode such as \"0755\" (quote it)", s)
				}
				f.Mode = s
			case "owner":
				f.Owner = s
			case "group":
				f.Group = s
			default:
				l.add(k, "%q is not a file key (want one of %s)", k.Value, strings.Join(fileK, ", "))
			}
		}
		if srcAt == nil || f.Dest == "" {
			l.add(item, "a file needs src: and dest:")
			continue
		}
		if !filepath.IsAbs(f.Src) {
			f.Src = filepath.Join(l.b.Dir, f.Src)
		}
		var err error
		if err = l.sandbox.CheckRead(f.Src); err != nil {
			l.add(srcAt, "src: %v", err)
		} else if f.MD5, f.Size, err = FileMD5(f.Src); err != nil {
			l.add(srcAt, "src: %v", err)
		}
		l.b.Files = append(l.b.Files, f)
	}
}

func (l *manifestLoader) playbook(opts LoadOptions) {
	path := l.b.Playbook.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(l.file), path)
	}
	pb, err := playbooks.Load(path, playbooks.Options{Modules: opts.Modules, Sandbox: opts.Sandbox, Decrypt: l.decrypt})
	if err != nil {
		var list playbooks.ErrorList
		if errors.As(err, &list) {
			l.errs = append(l.errs, list...)
			return
		}
		l.add(l.pbAt, "playbook: %v", err)
		return
	}
	// A bundle is checked whole before any host is touched: what a
	// playbook run would only find on the hosts that reach it (a missing
	// include, a template that does not parse) refuses the bundle.
	if len(pb.Warnings) > 0 {
		l.errs = append(l.errs, pb.Warnings...)
		return
	}
	// The bundle's vars are the plays' defaults: a play's own vars win.
	for _, p := range pb.Plays {
		if p.Vars == nil {
			p.Vars = map[string]any{}
		}
		for k, v := range l.b.Vars {
			if _, ok := p.Vars[k]; !ok {
				p.Vars[k] = v
			}
		}
	}
	l.b.Playbook = pb
}

// FileMD5 returns the hex MD5 and size of a regular file, streaming it.
// Anything else (a directory, a named pipe, a device, a socket) is
// refused without being opened, so that a FIFO cannot block the load and
// a device cannot feed it without end.
func FileMD5(path string) (string, int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", 0, err
	}
	if !st.Mode().IsRegular() {
		return "", 0, notRegular(path, st.Mode())
	}
	// Non-blocking, should a FIFO replace the file after the check: the
	// open then returns at once, and the check below refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return "", 0, err
	}
	if !st.Mode().IsRegular() {
		return "", 0, notRegular(path, st.Mode())
	}
	h := md5.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// notRegular is the error for a tracked file that is not a regular file.
func notRegular(path string, mode fs.FileMode) error {
	kind := "not a regular file"
	switch {
	case mode.IsDir():
		kind = "a directory"
	case mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		kind = "a socket"
	case mode&fs.ModeDevice != 0:
		kind = "a device"
	}
	return &fs.PathError{Op: "read", Path: path, Err: errors.New(kind + "; a tracked file must be a regular file")}
}
