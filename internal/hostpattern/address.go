package hostpattern

import (
	"regexp"
	"strconv"
	"strings"
)

// The address grammar of Ansible's parse_address: host names, IPv4 and
// IPv6 addresses, any of them with [x:y(:z)] ranges, and an optional port.
var (
	numericRange  = `\[(?:[0-9]+:[0-9]+)(?::[0-9]+)?\]`
	hexRange      = `\[(?:[0-9a-f]+:[0-9a-f]+)(?::[0-9]+)?\]`
	alnumRange    = `\[(?:[a-z]:[a-z]|[0-9]+:[0-9]+)(?::[0-9]+)?\]`
	ipv6Comp      = `(?:[0-9a-f]{1,4}|` + hexRange + `)`
	ipv4Comp      = `(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]|` + numericRange + `)`
	label         = `(?:[\w]|` + alnumRange + `)(?:[\w_-]|` + alnumRange + `)*`
	reBracketPort = regexp.MustCompile(`^\[(.+)\]:([0-9]+)$`)
	reHostPort    = regexp.MustCompile(`^((?:[^:\[\]]|\[[^\]]*\])*):([0-9]+)$`)
	reIPv4        = regexp.MustCompile(`(?i)^(?:` + ipv4Comp + `\.){3}` + ipv4Comp + `$`)
	reIPv6        = regexp.MustCompile(`(?i)^(?:` + strings.ReplaceAll(strings.Join([]string{
		`(?:{0}:){7}{0}`, `(?:{0}:){1,6}:`, `(?:{0}:)(?::{0}){1,6}`,
		`(?:{0}:){2}(?::{0}){1,5}`, `(?:{0}:){3}(?::{0}){1,4}`,
		`(?:{0}:){4}(?::{0}){1,3}`, `(?:{0}:){5}(?::{0}){1,2}`,
		`(?:{0}:){6}(?::{0})`, `:(?::{0}){1,6}`, `{0}?::`,
		`(?:0:){6}(?:{0}\.){3}{0}`, `::(?:ffff:)?(?:{0}\.){3}{0}`,
		`(?:0:){5}ffff:(?:{0}\.){3}{0}`,
	}, "|"), "{0}", ipv6Comp) + `)$`)
	reHostname = regexp.MustCompile(`(?i)^` + label + `(?:\.` + label + `)*$`)
)

// ParseAddress splits "host:port" / "[host]:port" as Ansible's
// parse_address(allow_ranges=True). ok is false when the text is not a
// recognisable host; port is 0 when none was given.
func ParseAddress(s string) (host string, port int, ok bool) {
	addr := s
	for _, re := range []*regexp.Regexp{reBracketPort, reHostPort} {
		if m := re.FindStringSubmatch(addr); m != nil {
			p, err := strconv.Atoi(m[2])
			if err != nil {
				return "", 0, false
			}
			addr, port = m[1], p
		}
	}
	if reIPv4.MatchString(addr) || reIPv6.MatchString(addr) || hostnameOK(addr) {
		return addr, port, true
	}
	return "", 0, false
}

// hostnameOK matches Ansible's hostname pattern, whose labels may not end
// in '-' or '_' (a look-behind RE2 lacks, checked by hand).
func hostnameOK(s string) bool {
	if !reHostname.MatchString(s) {
		return false
	}
	for _, l := range strings.Split(s, ".") {
		if strings.HasSuffix(l, "-") || strings.HasSuffix(l, "_") {
			return false
		}
	}
	return true
}
