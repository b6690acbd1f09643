package provision

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tender-sh/tender/transport"
)

// maxWarnHosts is how many hosts a warning's text names; the event's
// Hosts has them all.
const maxWarnHosts = 10

// connWarnings remembers which hosts the run has asked the Dialer about
// (transport.Warner) and what it has reported, so that each warning is
// reported once per run and host.
type connWarnings struct {
	mu     sync.Mutex
	asked  map[string]bool // host and target key
	warned map[string]bool // host and warning
}

// hostTarget is a host and the target its variables describe.
type hostTarget struct {
	host string
	key  string // targetKey of t
	t    transport.Target
	d    transport.Dialer // what reaches t
}

// warnTargets asks each target's Dialer, when it is a transport.Warner,
// what it has to say about reaching the hosts, and reports each warning
// not reported yet as one event naming every host it concerns.
func (rn *run) warnTargets(play string, targets []hostTarget) {
	if len(targets) == 0 {
		return
	}
	var order []string
	hosts := map[string][]string{}
	cw := &rn.connWarn
	cw.mu.Lock()
	if cw.asked == nil {
		cw.asked, cw.warned = map[string]bool{}, map[string]bool{}
	}
	for _, ht := range targets {
		w, ok := ht.d.(transport.Warner)
		k := ht.host + "\x00" + ht.key
		if !ok || cw.asked[k] {
			continue
		}
		cw.asked[k] = true
		for _, msg := range w.Warnings(ht.t) {
			k := ht.host + "\x00" + msg
			if cw.warned[k] {
				continue
			}
			cw.warned[k] = true
			if hosts[msg] == nil {
				order = append(order, msg)
			}
			hosts[msg] = append(hosts[msg], ht.host)
		}
	}
	cw.mu.Unlock()
	for _, msg := range order {
		e := Event{Kind: Warning, Play: play, Hosts: hosts[msg], Msg: hostList(hosts[msg]) + ": " + msg}
		if len(e.Hosts) == 1 {
			e.Host = e.Hosts[0]
		}
		rn.emit(e)
	}
}

// warnPlayHosts reports the Dialer's warnings for the hosts a play's
// batch is about to reach, before any of them is: one warning for all
// the hosts that share it, rather than one per host as they connect.
func (pr *playRun) warnPlayHosts(hosts []*hostRun) {
	r := pr.rn.r
	var targets []hostTarget
	for _, h := range hosts {
		c, err := ResolveConnection(r.Connections, r.config(), h.name, pr.scope(h, nil, nil).Lookup, ConnKeywords{Connection: pr.play.Connection})
		if _, ok := c.Dialer.(transport.Warner); err == nil && ok {
			targets = append(targets, hostTarget{host: h.name, key: targetKey(c.Type, c.Target), t: r.vetted(c.Target), d: c.Dialer})
		}
	}
	pr.rn.warnTargets(pr.name, targets)
}

// hostList names hosts for a message, the first maxWarnHosts of them.
func hostList(hosts []string) string {
	if len(hosts) <= maxWarnHosts {
		return strings.Join(hosts, ", ")
	}
	return fmt.Sprintf("%s and %d more hosts", strings.Join(hosts[:maxWarnHosts], ", "), len(hosts)-maxWarnHosts)
}
