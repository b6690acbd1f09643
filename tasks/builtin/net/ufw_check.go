package net

import (
	"regexp"
	"strings"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// ufwIPv4 is the dotted quad the module looks for in addresses and
// rules lines.
const ufwIPv4 = `((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])`

// ufwIPv6 is the IPv6 address (full, compressed, link-local with a zone,
// IPv4-mapped or -embedded) the module looks for, in the same order of
// alternatives.
const ufwIPv6 = `(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:` +
	`|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}` +
	`(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4})` +
	`{1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]` +
	`{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]` +
	`{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:)|fe80:(:[0-9a-fA-F]{0,4})` +
	`{0,4}%[0-9a-zA-Z]{1,}|::(ffff(:0{1,4}){0,1}:){0,1}((25[0-5]|(2[0-4]` +
	`|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}` +
	`[0-9])|([0-9a-fA-F]{1,4}:){1,4}:((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}` +
	`[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9]))`

var (
	ufwHasIPv4   = regexp.MustCompile(ufwIPv4)
	ufwHasIPv6   = regexp.MustCompile(ufwIPv6)
	ufwStartIPv4 = regexp.MustCompile(`^(?:` + ufwIPv4 + `)`)
	ufwStartIPv6 = regexp.MustCompile(`^(?:` + ufwIPv6 + `)`)
	// ufwLoggingRe and ufwDefaultRe read `ufw status verbose`.
	ufwLoggingRe = regexp.MustCompile(`Logging: (on|off)(?: \(([a-z]+)\))?`)
	ufwDefaultRe = regexp.MustCompile(`Default: (deny|allow|reject) \(incoming\), (deny|allow|reject) \(outgoing\), (deny|allow|reject|disabled) \(routed\)`)
)

// ufwStateChanged judges a state command from the status before: reload
// and reset always change; in check mode, enabled changes an inactive
// firewall and disabled an active one (" active", so that "inactive"
// does not count).
func ufwStateChanged(state, preState string, check bool) bool {
	if state == "reloaded" || state == "reset" {
		return true
	}
	if !check {
		return false
	}
	enabled := strings.Contains(preState, " active")
	return (state == "disabled" && enabled) || (state == "enabled" && !enabled)
}

// ufwLoggingChanged judges a logging command from the status before (in
// and out of check mode, as the module does): a status without a
// Logging line (an inactive firewall) always changes.
func ufwLoggingChanged(value, preState string) bool {
	m := ufwLoggingRe.FindStringSubmatch(preState)
	if m == nil {
		return true
	}
	onOff, level := m[1], m[2]
	if value == "off" {
		return onOff != "off"
	}
	return onOff == "off" || (value != "on" && value != level)
}

// ufwDefaultChanged judges, in check mode, a default policy from the
// status before: the direction's policy (incoming when none is given)
// differs, unless routing is disabled; a status without a Default line
// changes.
func ufwDefaultChanged(value, direction, preState string) bool {
	m := ufwDefaultRe.FindStringSubmatch(preState)
	if m == nil {
		return true
	}
	cur := map[string]string{"incoming": m[1], "outgoing": m[2], "routed": m[3]}[shared.OrDefault(direction, "incoming")]
	return cur != value && cur != "disabled"
}

// ufwRuleChanged judges, in check mode, the rule's dry run (dry) against
// the tuple lines before: a dry run that only skips existing rules does
// not change; else its tuple lines are compared with those before, only
// the IPv4 ones when an address starts with an IPv4 address, only the
// IPv6 ones when one starts with an IPv6 address.
func ufwRuleChanged(fromIP, toIP, preRules, dry string) bool {
	lines := shared.SplitLinesKeep(dry)
	skipping := 0
	for _, l := range lines {
		if strings.Contains(l, "Skipping") {
			skipping++
		}
	}
	if skipping > 0 && skipping == len(lines) {
		return false
	}
	var tuples strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(l, "### tuple") {
			tuples.WriteString(l)
		}
	}
	rules := tuples.String()
	switch {
	case ufwStartIPv4.MatchString(fromIP) || ufwStartIPv4.MatchString(toIP):
		return ufwLinesMatching(ufwHasIPv4, preRules) != ufwLinesMatching(ufwHasIPv4, rules)
	case ufwStartIPv6.MatchString(fromIP) || ufwStartIPv6.MatchString(toIP):
		return ufwLinesMatching(ufwHasIPv6, preRules) != ufwLinesMatching(ufwHasIPv6, rules)
	}
	return preRules != rules
}

// ufwLinesMatching are the lines of s (with their ends) re finds
// something in.
func ufwLinesMatching(re *regexp.Regexp, s string) string {
	var b strings.Builder
	for _, l := range shared.SplitLinesKeep(s) {
		if re.MatchString(l) {
			b.WriteString(l)
		}
	}
	return b.String()
}
