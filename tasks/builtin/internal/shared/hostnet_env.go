package shared

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// HostNet is what the host's environment says of a request, as Ansible's
// module running there sees it: its proxy variables, as Python's urllib
// reads them (getproxies_environment), and its netrc file (NETRC, else
// ~/.netrc) when one is read.
type HostNet struct {
	proxies map[string]string // "http", "https", "no"
	netrc   map[string][2]string
	// netrcErr is the NetrcParseError Python raises reading the file.
	netrcErr string
}

// hostNetScript prints the host's proxy variables (each one set, hex
// encoded: _t_net_NAME=HEX) and, with _t_netrc set, the netrc file Python
// would read (_t_net_netrc=HEX) with, for ~/.netrc, its owner and mode
// and the current user, which Python's netrc checks.
const hostNetScript = `
_t_hex() { od -An -v -tx1 | tr -d ' \n'; }
for _t_n in http_proxy HTTP_PROXY https_proxy HTTPS_PROXY no_proxy NO_PROXY; do
	eval "_t_s=\${$_t_n+1}"
	[ -n "$_t_s" ] && { printf '_t_net_%s=' "$_t_n"; eval "printf %s \"\$$_t_n\"" | _t_hex; echo; }
done
[ -n "${REQUEST_METHOD+1}" ] && echo _t_net_cgi=1
if [ -n "$_t_netrc" ]; then
	if [ -n "${NETRC+1}" ]; then _t_nf=$NETRC _t_nd=
	else
		_t_h=${HOME-$(awk -F: -v u="$(id -u)" '$3 == u { print $6; exit }' /etc/passwd)}
		_t_nf=${_t_h%/}/.netrc _t_nd=1
	fi
	if [ -f "$_t_nf" ] && [ -r "$_t_nf" ]; then
		printf '_t_net_netrc='; _t_hex <"$_t_nf"; echo
		printf '_t_net_nf='; printf %s "$_t_nf" | _t_hex; echo
		[ -n "$_t_nd" ] && printf '_t_net_nd=1\n_t_net_nuid=%s\n_t_net_nmode=%s\n_t_net_uid=%s\n_t_net_nowner=%s\n_t_net_user=%s\n' \
			"$(stat -c %u -- "$_t_nf")" "$(stat -c %a -- "$_t_nf")" "$(id -u)" "$(stat -c %U -- "$_t_nf")" "$(id -un 2>/dev/null)"
	fi
fi
`

// HostNetScript is the shell text that reads what HostNet holds, for a
// module to run in a round trip it makes anyway (ParseHostNet reads its
// output); "" when the task needs nothing of it: use_proxy false and no
// netrc to read (use_netrc false, or a user name given).
func HostNetScript(a tasks.Values, rawURL string) string {
	netrc := a.Bool("use_netrc") && a.Str("url_username") == ""
	if u, err := url.Parse(rawURL); err == nil && u.User != nil && u.User.Username() != "" {
		netrc = false
	}
	if !a.Bool("use_proxy") && !netrc {
		return ""
	}
	if netrc {
		return "_t_netrc=1" + hostNetScript
	}
	return "_t_netrc=" + hostNetScript
}

// ReadHostNet runs HostNetScript in a round trip of its own; nil when the
// task needs nothing of the host's environment.
func ReadHostNet(ctx context.Context, env *tasks.Env, a tasks.Values, rawURL string) (*HostNet, error) {
	script := HostNetScript(a, rawURL)
	if script == "" {
		return nil, nil
	}
	out, err := Run(ctx, env, script, nil)
	if err != nil {
		return nil, err
	}
	return ParseHostNet(ParseVerdict(out.Stdout)), nil
}

// ParseHostNet reads HostNetScript's lines out of a script's verdict and
// takes them out of it (the netrc's secrets go no further).
func ParseHostNet(v Verdict) *HostNet {
	defer func() {
		for k := range v {
			if strings.HasPrefix(k, "_t_net_") {
				delete(v, k)
			}
		}
	}()
	h := &HostNet{proxies: map[string]string{}}
	val := func(k string) (string, bool) {
		x, ok := v["_t_net_"+k]
		if !ok {
			return "", false
		}
		b, _ := hex.DecodeString(x)
		return string(b), true
	}
	// getproxies_environment: any case first, then the lower-case names,
	// which win (an empty one removes); CGI drops HTTP_PROXY.
	for _, k := range []string{"http", "https", "no"} {
		if s, ok := val(strings.ToUpper(k) + "_PROXY"); ok && s != "" {
			h.proxies[k] = s
		}
		if s, ok := val(k + "_proxy"); ok && s != "" {
			h.proxies[k] = s
		}
	}
	if v["_t_net_cgi"] == "1" {
		delete(h.proxies, "http")
	}
	for _, k := range []string{"http", "https", "no"} {
		if s, ok := val(k + "_proxy"); ok {
			if s != "" {
				h.proxies[k] = s
			} else {
				delete(h.proxies, k)
			}
		}
	}
	if text, ok := val("netrc"); ok {
		var check func(login string) string
		if v["_t_net_nd"] == "1" {
			check = func(login string) string {
				if login == "anonymous" {
					return ""
				}
				if v["_t_net_nuid"] != v["_t_net_uid"] {
					return fmt.Sprintf("~/.netrc file owner (%s, %s) does not match current user", orUID(v["_t_net_nowner"], v["_t_net_nuid"]), orUID(v["_t_net_user"], v["_t_net_uid"]))
				}
				if m, err := strconv.ParseUint(v["_t_net_nmode"], 8, 32); err == nil && m&0o077 != 0 {
					return "~/.netrc access too permissive: access permissions must restrict access to only the owner"
				}
				return ""
			}
		}
		file, _ := val("nf")
		h.netrc, h.netrcErr = readNetrc(text, file, check)
	}
	return h
}

func orUID(name, uid string) string {
	if name == "" || name == "UNKNOWN" {
		return "uid " + uid
	}
	return name
}

// netrcLogin is the netrc entry for host (or the default one) as Python's
// netrc.authenticators finds it: login and password; an error when Python
// could not read the file.
func (h *HostNet) netrcLogin(host string) (string, string, error) {
	if h.netrcErr != "" {
		return "", "", &PlainError{"An unknown error occurred: " + h.netrcErr}
	}
	e, ok := h.netrc[host]
	if !ok {
		e, ok = h.netrc["default"]
	}
	if !ok {
		return "", "", nil
	}
	return e[0], e[1], nil
}

// proxyFor is the proxy Python's urllib sends req through: the
// https_proxy of an https URL (through a CONNECT tunnel, whatever the
// proxy's own scheme), the http_proxy of an http one, none for a host
// no_proxy names; user and password of the proxy URL go in
// Proxy-Authorization when both are given.
func (h *HostNet) proxyFor(req *http.Request) (*url.URL, error) {
	p, ok := h.proxies[req.URL.Scheme]
	if !ok || h.bypass(req.URL.Host) {
		return nil, nil
	}
	scheme, authority := "", p
	if s, rest, ok := strings.Cut(p, ":"); ok && !strings.Contains(s, "/") && strings.HasPrefix(rest, "/") {
		if !strings.HasPrefix(rest, "//") {
			return nil, &PlainError{fmt.Sprintf("proxy URL with no authority: '%s'", RedactURL(p))}
		}
		scheme, authority = strings.ToLower(s), rest[2:]
		end := strings.IndexByte(authority[max(strings.LastIndexByte(authority, '@'), 0):], '/')
		if end >= 0 {
			authority = authority[:max(strings.LastIndexByte(authority, '@'), 0)+end]
		}
	}
	if scheme == "" {
		scheme = req.URL.Scheme
	}
	userinfo, hostport, hasUser := strings.Cut(authority, "@")
	if !hasUser {
		userinfo, hostport = "", authority
	}
	switch {
	case req.URL.Scheme == "https":
		// urllib tunnels an https request through any proxy with a plain
		// CONNECT, to port 443 when the proxy names none.
		if _, _, err := net.SplitHostPort(hostport); err != nil {
			hostport += ":443"
		}
		scheme = "http"
	case scheme == "http" || scheme == "https":
	default:
		return nil, fmt.Errorf("unknown url type: %s", scheme)
	}
	u := &url.URL{Scheme: scheme, Host: hostport}
	if user, pass, ok := strings.Cut(userinfo, ":"); ok && user != "" && pass != "" {
		uu, err1 := url.PathUnescape(user)
		pp, err2 := url.PathUnescape(pass)
		if err1 == nil && err2 == nil {
			u.User = url.UserPassword(uu, pp)
		}
	}
	return u, nil
}

// bypass is Python's proxy_bypass_environment: no_proxy "*", or a name
// host (with or without its port) is or ends in.
func (h *HostNet) bypass(host string) bool {
	np, ok := h.proxies["no"]
	if !ok {
		return false
	}
	if np == "*" {
		return true
	}
	host = strings.ToLower(host)
	hostonly := host
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		if _, err := strconv.Atoi(host[i+1:]); err == nil {
			hostonly = host[:i]
		}
	}
	for _, name := range strings.Split(np, ",") {
		name = strings.ToLower(strings.TrimLeft(strings.TrimSpace(name), "."))
		if name == "" {
			continue
		}
		if hostonly == name || host == name || strings.HasSuffix(hostonly, "."+name) || strings.HasSuffix(host, "."+name) {
			return true
		}
	}
	return false
}
