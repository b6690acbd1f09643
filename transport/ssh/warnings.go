package ssh

import (
	"fmt"
	"os"
	"strings"

	"github.com/tender-sh/tender/transport"
)

// Warnings implements transport.Warner: the known_hosts lines skipped
// for t and its jump hosts, and whether t's own ssh arguments turn host
// key checking off.
func (d *Dialer) Warnings(t transport.Target) []string {
	d.init()
	if d.config.err != nil {
		return nil
	}
	h, jumps, err := d.resolve(t)
	if err != nil || vet(append(jumps, h)) != nil {
		return nil // Connect says what is wrong
	}
	var out []string
	if w := d.uncheckedWarning(t, h); w != "" {
		out = append(out, w)
	}
	seen := map[string]bool{}
	for _, hp := range append(jumps, h) {
		key := strings.Join(hp.knownHosts, "\x00")
		if d.policy(hp) == HostKeyInsecure || seen[key] {
			continue
		}
		seen[key] = true
		if db, err := d.known.db(hp); err == nil && db != nil {
			out = append(out, db.warnings...)
		}
	}
	return out
}

// uncheckedWarning says so when t's arguments leave h's key unchecked:
// accept-new (StrictHostKeyChecking=no) with nothing but /dev/null for
// known_hosts accepts any key, as --host-key-checking insecure does.
// Settings from ssh config or tender's flags alone are the operator's
// own choice, and get no warning here.
func (d *Dialer) uncheckedWarning(t transport.Target, h *hop) string {
	if d.policy(h) != HostKeyAcceptNew {
		return ""
	}
	for _, f := range h.knownHosts {
		if f != os.DevNull {
			return ""
		}
	}
	// The options that decided it, where the arguments gave them (the
	// first value wins, common args before extra args).
	type option struct{ name, key string }
	var opts []option
	if d.HostKeys == HostKeyDefault {
		opts = append(opts, option{"StrictHostKeyChecking", "stricthostkeychecking"})
	}
	if len(d.KnownHosts) == 0 {
		opts = append(opts, option{"UserKnownHostsFile", "userknownhostsfile"})
	}
	said := map[string][]string{}
	var order []string
	for _, o := range opts {
		common, extra := argText(t)
		for _, v := range []struct{ name, args string }{{commonArgsVar, common}, {extraArgsVar, extra}} {
			args, err := parseArgs(v.name, v.args)
			if err != nil || len(args[o.key]) == 0 {
				continue
			}
			if said[v.name] == nil {
				order = append(order, v.name)
			}
			said[v.name] = append(said[v.name], "-o "+o.name+"="+args[o.key][0])
			break
		}
	}
	if len(order) == 0 {
		return ""
	}
	var parts []string
	for _, name := range order {
		parts = append(parts, name+" has "+strings.Join(said[name], " "))
	}
	return fmt.Sprintf("host keys are not checked: %s, so any key is accepted; "+
		"anyone between you and the host can read and change everything", strings.Join(parts, " and "))
}
