package ssh

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kevinburke/ssh_config"

	"github.com/tender-sh/tender/transport"
)

// sshConfig is the parsed ssh config (nil cfg: none).
type sshConfig struct {
	cfg *ssh_config.Config
	err error
}

func loadConfig(path string) *sshConfig {
	if path == "none" {
		return &sshConfig{}
	}
	explicit := path != ""
	if !explicit {
		path = expandPath("~/.ssh/config", nil)
	}
	f, err := os.Open(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return &sshConfig{}
		}
		return &sshConfig{err: fmt.Errorf("ssh config: %w", err)}
	}
	defer f.Close()
	cfg, err := ssh_config.Decode(f)
	if err != nil {
		return &sshConfig{err: fmt.Errorf("ssh config %s: %w", path, err)}
	}
	return &sshConfig{cfg: cfg}
}

func (c *sshConfig) get(alias, key string) string {
	if c.cfg == nil {
		return ""
	}
	v, _ := c.cfg.Get(alias, key)
	return v
}

func (c *sshConfig) getAll(alias, key string) []string {
	if c.cfg == nil {
		return nil
	}
	v, _ := c.cfg.GetAll(alias, key)
	return v
}

// hop is one SSH server to log in to, fully resolved.
type hop struct {
	alias      string          // the name ssh config matched
	host       string          // where to connect
	port       int             //
	user       string          //
	password   string          // never logged
	keys       []transport.Key // in memory, offered first
	keyFiles   []string        // must exist
	extraKeys  []string        // from ssh config or defaults: skipped when missing
	knownHosts []string
	strict     string // StrictHostKeyChecking from args or config
	// named are the files above that the Target named (its key files,
	// and the files its arguments name) rather than the Dialer's
	// settings or ssh config: files vets them (nil: no vetting).
	named map[string]bool
	files transport.Files
}

// options holds ssh command-line style settings (lower-case keys).
type options map[string][]string

func (o options) get(key string) string {
	if v := o[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// resolve turns t into the hops to log in to: its jump hosts, in order,
// then itself. Settings on t and in its common args win over ssh config,
// as OpenSSH's command line does.
func (d *Dialer) resolve(t transport.Target) (*hop, []*hop, error) {
	args, err := targetArgs(t)
	if err != nil {
		return nil, nil, err
	}
	alias := t.Host
	if alias == "" {
		alias = t.Name
	}
	if alias == "" {
		return nil, nil, errors.New("target has no host")
	}
	h, err := d.resolveHop(alias, t.User, t.Port, args)
	if err != nil {
		return nil, nil, err
	}
	targetKeys := make([]string, len(t.KeyFiles))
	for i, f := range t.KeyFiles {
		targetKeys[i] = expandPath(f, h)
		h.named[targetKeys[i]] = true
	}
	h.files, h.keys = t.Files, t.Keys
	h.keyFiles = append(targetKeys, h.keyFiles...)
	h.password = or(t.Password, d.Password)
	jump := args.get("proxyjump")
	if jump == "" {
		jump = d.config.get(alias, "ProxyJump")
	}
	if jump == "" {
		pc := args.get("proxycommand")
		if pc == "" {
			pc = d.config.get(alias, "ProxyCommand")
		}
		if pc != "" && !strings.EqualFold(pc, "none") {
			if jump, err = proxyCommandJump(pc); err != nil {
				return nil, nil, err
			}
		}
	}
	var jumps []*hop
	if jump != "" && !strings.EqualFold(jump, "none") {
		for _, spec := range strings.Split(jump, ",") {
			u, host, port, err := parseJump(strings.TrimSpace(spec))
			if err != nil {
				return nil, nil, err
			}
			j, err := d.resolveHop(host, u, port, nil)
			if err != nil {
				return nil, nil, err
			}
			keys := make([]string, len(t.KeyFiles))
			for i, f := range t.KeyFiles {
				keys[i] = expandPath(f, j)
				j.named[keys[i]] = true
			}
			j.keyFiles, j.files, j.keys = append(keys, j.keyFiles...), t.Files, t.Keys
			j.password = d.Password
			jumps = append(jumps, j)
		}
	}
	return h, jumps, nil
}

func (d *Dialer) resolveHop(alias, userName string, port int, args options) (*hop, error) {
	get := func(key string) string {
		if v := args.get(strings.ToLower(key)); v != "" {
			return v
		}
		return d.config.get(alias, key)
	}
	h := &hop{alias: alias, host: alias, port: port, user: userName, named: map[string]bool{}}
	if hn := get("HostName"); hn != "" {
		h.host = strings.ReplaceAll(hn, "%h", alias)
	}
	if h.port == 0 {
		if p := get("Port"); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil || n <= 0 || n > 65535 {
				return nil, fmt.Errorf("bad port %q for %s", p, alias)
			}
			h.port = n
		} else {
			h.port = DefaultPort
		}
	}
	if h.user == "" {
		h.user = or(get("User"), d.User)
	}
	if h.user == "" {
		h.user = localUser()
	}
	h.keyFiles = append(append([]string{}, args["identityfile"]...), d.KeyFiles...)
	h.extraKeys = d.config.getAll(alias, "IdentityFile")
	if len(h.keyFiles) == 0 && len(h.extraKeys) == 0 {
		h.extraKeys = []string{"~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ed25519"}
	}
	for i, f := range h.keyFiles {
		h.keyFiles[i] = expandPath(f, h)
		if i < len(args["identityfile"]) {
			h.named[h.keyFiles[i]] = true
		}
	}
	for i, f := range h.extraKeys {
		h.extraKeys[i] = expandPath(f, h)
	}
	h.knownHosts = append([]string{}, d.KnownHosts...)
	fromArgs := false
	if len(h.knownHosts) == 0 {
		h.knownHosts = strings.Fields(get("UserKnownHostsFile"))
		fromArgs = args.get("userknownhostsfile") != ""
	}
	if len(h.knownHosts) == 0 {
		h.knownHosts = []string{"~/.ssh/known_hosts"}
	}
	for i, f := range h.knownHosts {
		if strings.EqualFold(f, "none") && len(d.KnownHosts) == 0 {
			// OpenSSH's "no user known_hosts file": nothing is known,
			// and accept-new records nothing.
			h.knownHosts[i] = os.DevNull
			continue
		}
		h.knownHosts[i] = expandPath(f, h)
		if fromArgs {
			h.named[h.knownHosts[i]] = true
		}
	}
	h.strict = strings.ToLower(get("StrictHostKeyChecking"))
	return h, nil
}

// parseJump splits a ProxyJump element: [ssh://][user@]host[:port].
func parseJump(spec string) (userName, host string, port int, err error) {
	s := strings.TrimPrefix(spec, "ssh://")
	if i := strings.LastIndex(s, "@"); i >= 0 {
		userName, s = s[:i], s[i+1:]
	}
	host = s
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "]"); i > 0 {
			host = s[1:i]
			s = s[i+1:]
			if strings.HasPrefix(s, ":") {
				port, err = strconv.Atoi(s[1:])
			}
		}
	} else if i := strings.LastIndex(s, ":"); i >= 0 && strings.Count(s, ":") == 1 {
		host = s[:i]
		port, err = strconv.Atoi(s[i+1:])
	}
	if err != nil || host == "" {
		return "", "", 0, fmt.Errorf("bad ProxyJump host %q", spec)
	}
	return userName, host, port, nil
}

func localUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}

// expandPath expands ~ and the tokens %d (home), %u (local user), %h, %p
// and %r (the hop's host, port and remote user) and %% in an ssh path.
func expandPath(p string, h *hop) string {
	home, _ := os.UserHomeDir()
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = filepath.Join(home, p[1:])
	}
	if !strings.Contains(p, "%") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '%' || i+1 == len(p) {
			b.WriteByte(p[i])
			continue
		}
		i++
		switch p[i] {
		case 'd':
			b.WriteString(home)
		case 'u':
			b.WriteString(localUser())
		case 'h':
			if h != nil {
				b.WriteString(h.host)
			}
		case 'p':
			if h != nil {
				b.WriteString(strconv.Itoa(h.port))
			}
		case 'r':
			if h != nil {
				b.WriteString(h.user)
			}
		default:
			b.WriteByte(p[i])
		}
	}
	return b.String()
}
