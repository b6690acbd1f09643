package agents

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// ProbeResult is what the one-round-trip check found on a host.
type ProbeResult struct {
	// MD5 maps each tracked destination to its MD5 on the host, or to
	// "missing" or "unreadable".
	MD5 map[string]string
	// Port is "open", "closed", or "" when the bundle has no port.
	// PortDetail says more when the check itself could not run.
	Port       string
	PortDetail string
	// Health is "ok", "failed", or "" when the bundle has no health
	// command.
	Health string
}

// Markers a probe reports instead of an MD5.
const (
	md5Missing    = "missing"
	md5Unreadable = "unreadable"
)

// probeTimeout bounds a controller-side port probe.
const probeTimeout = 5 * time.Second

// healthTimeout bounds the health command on the host (whole seconds).
var healthTimeout = 10 * time.Second

// probeScript is the one script the check runs on a host. It reads the MD5
// of every tracked file (one md5sum for them all, falling back to one per
// file when that fails), looks for a LISTEN socket on the agent's port in
// /proc/net/tcp and tcp6 (no /dev/tcp, no nc: busybox-safe) when the probe
// is from the host's side, and runs the health command. It changes
// nothing. It prints key=value lines: f0..fN, port, health. Starting a
// program is most of what a check costs the host, so it starts as few as
// it can: md5sum once, awk once, and timeout and sh for the health.
func probeScript(b *Bundle) string {
	var s strings.Builder
	files := make([]string, len(b.Files))
	for i, f := range b.Files {
		files[i] = transport.Quote(f.Dest)
	}
	list := strings.Join(files, " ")
	// Each line of md5sum's output is its argument's in order; a name
	// that needs escaping starts its line with a backslash.
	fmt.Fprintf(&s, `nl='
'
i=0 idx=
set --
for f in %s; do
	if [ -e "$f" ]; then set -- "$@" "$f"; idx="$idx $i"; else echo "f$i=missing"; fi
	i=$((i + 1))
done
if [ $# -eq 0 ]; then :
elif s=$(md5sum -- "$@" 2>/dev/null); then
	s=$s$nl
	for i in $idx; do
		l=${s%%%%"$nl"*} s=${s#*"$nl"}
		l=${l#\\}
		echo "f$i=${l%%%% *}"
	done
else
	i=0
	for f in %s; do
		if [ ! -e "$f" ]; then :
		elif s=$(md5sum < "$f" 2>/dev/null); then echo "f$i=${s%%%% *}"
		else echo "f$i=unreadable"; fi
		i=$((i + 1))
	done
fi
`, list, list)
	if b.Port != 0 && b.Probe == ProbeHost {
		fmt.Fprintf(&s, `set --
for t in /proc/net/tcp /proc/net/tcp6; do [ -r "$t" ] && set -- "$@" "$t"; done
if [ $# -eq 0 ]; then echo "port=unknown"
elif awk -v p=":%04X" '$4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' "$@"; then echo "port=open"
else echo "port=closed"; fi
`, b.Port)
	}
	if b.Health != "" {
		// A hung health command must not hang the probe: bound it where
		// the host has timeout(1) (coreutils, busybox).
		fmt.Fprintf(&s, `h=%s
if command -v timeout >/dev/null 2>&1; then set -- timeout %d sh -c "$h"; else set -- sh -c "$h"; fi
if "$@" >/dev/null 2>&1 </dev/null; then echo health=ok; else echo health=failed; fi
`, transport.Quote(b.Health), int(healthTimeout/time.Second))
	}
	return s.String()
}

// parseProbe reads probeScript's output.
func parseProbe(b *Bundle, out []byte) (*ProbeResult, error) {
	kv := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			kv[k] = v
		}
	}
	r := &ProbeResult{MD5: map[string]string{}, Health: kv["health"]}
	for i, f := range b.Files {
		v, ok := kv["f"+strconv.Itoa(i)]
		if !ok {
			return nil, fmt.Errorf("the probe printed no MD5 for %s", f.Dest)
		}
		r.MD5[f.Dest] = v
	}
	if b.Health != "" && r.Health != "ok" && r.Health != "failed" {
		return nil, fmt.Errorf("the probe printed no health state")
	}
	if b.Port != 0 && b.Probe == ProbeHost {
		switch r.Port = kv["port"]; r.Port {
		case "open", "closed":
		case "unknown":
			r.Port, r.PortDetail = "closed", "no /proc/net/tcp to read"
		default:
			return nil, fmt.Errorf("the probe printed no port state")
		}
	}
	return r, nil
}

// probeModule is the check as a module, so that it runs through
// provision.Runner with the host's own connection settings and become.
// Results are kept by host; the Runner only sees ok or failed.
type probeModule struct {
	b      *Bundle
	conns  *transport.Connections // how the hosts are reached, for their address
	script string
	mu     sync.Mutex
	found  map[string]*ProbeResult
}

// probeModuleName is the module's name in the probe's private registry.
const probeModuleName = "tender_agent_probe"

func newProbeModule(b *Bundle, conns *transport.Connections) *probeModule {
	return &probeModule{b: b, conns: conns, script: probeScript(b), found: map[string]*ProbeResult{}}
}

// Run probes one host: one Conn.Run, plus a TCP connect from the
// controller when the bundle says probe: controller. The Run is the only
// one on its connection (Deployer.probe closes it after the check), so
// it is marked Alone.
func (m *probeModule) Run(ctx context.Context, env *tasks.Env, _ tasks.Args) (tasks.Result, error) {
	res, err := env.Conn.Run(ctx, transport.Cmd{Script: m.script, Lines: true, Alone: true})
	if err != nil {
		return tasks.Result{}, err
	}
	if res.ExitCode != 0 {
		return tasks.Result{Failed: true, RC: res.ExitCode, Msg: "agent probe failed: " + strings.TrimSpace(string(res.Stderr))}, nil
	}
	r, err := parseProbe(m.b, res.Stdout)
	if err != nil {
		return tasks.Result{Failed: true, Msg: err.Error()}, nil
	}
	if m.b.Port != 0 && m.b.Probe == ProbeController {
		r.Port, r.PortDetail = m.dialFromController(ctx, env)
	}
	m.mu.Lock()
	m.found[env.Host] = r
	m.mu.Unlock()
	return tasks.Result{}, nil
}

// dialFromController connects to the host's address (as its connection
// type reads it: provision.ResolveConnection) and the agent's port from
// this machine.
func (m *probeModule) dialFromController(ctx context.Context, env *tasks.Env) (string, string) {
	c, err := provision.ResolveConnection(m.conns, nil, env.Host, evalLookup(env), provision.ConnKeywords{})
	if err != nil {
		return "closed", err.Error()
	}
	addr := c.Target.Host
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", net.JoinHostPort(addr, strconv.Itoa(m.b.Port)))
	if err != nil {
		return "closed", err.Error()
	}
	nc.Close()
	return "open", ""
}

// evalLookup reads the host's variables through the module's Env: a
// variable is set when it is defined. The names are those the connection
// types' Params list, plain variable names.
func evalLookup(env *tasks.Env) provision.VarLookup {
	return func(name string) (any, bool, error) {
		def, err := env.Eval(name + " is defined")
		if err != nil || def != true {
			return nil, false, err
		}
		v, err := env.Eval(name)
		return v, err == nil, err
	}
}

func (m *probeModule) result(host string) *ProbeResult {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.found[host]
}
