package expr

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"
	"unicode/utf8"
)

// urlFilters are Ansible's URL filters.
var urlFilters = map[string]filterFunc{
	"urlsplit": fURLSplit,
}

// urlComponents are the keys of urlsplit's result, the attributes of
// Python's urllib.parse.SplitResult that Ansible copies.
var urlComponents = []string{"fragment", "hostname", "netloc", "password", "path", "port", "query", "scheme", "username"}

// fURLSplit is Ansible's urlsplit: the parts of a URL as Python's
// urllib.parse.urlsplit finds them, all of them as a dict or the one named
// by the argument.
func fURLSplit(_ *Env, x any, args []any, kw map[string]any) (any, error) {
	s, ok := text(x)
	if !ok {
		switch x.(type) {
		case []any, map[string]any:
			// Python's urlsplit caches by its arguments.
			return nil, typeErrorf("unhashable type: '%s'", typeName(x))
		}
		if Truthy(x) {
			return nil, &pyError{msg: fmt.Sprintf("'%s' object has no attribute 'decode'", typeName(x)), exc: "AttributeError"}
		}
		// Python gives bytes for an empty value (None, 0): tender has none.
		return nil, errorf("urlsplit: expected a string, got %s", typeName(x))
	}
	parts, err := urlSplit(s)
	if err != nil {
		return nil, err
	}
	q := argOr(args, kw, 0, "query", "")
	if !Truthy(q) {
		return parts, nil
	}
	name, _ := text(q)
	v, ok := parts[name]
	if !ok {
		return nil, errorf("urlsplit: unknown URL component: %s", Str(q))
	}
	return v, nil
}

// urlSplit splits a URL with the rules of Python 3.11's urlsplit: leading
// C0 controls and spaces are dropped, tabs and line breaks removed; the
// scheme is lower-cased; username, password, hostname (lower-cased) and
// port (an integer) are None when absent. An invalid port, unbalanced
// brackets or a netloc that NFKC normalization would change into URL
// syntax are errors, as they are in Python.
func urlSplit(url string) (map[string]any, error) {
	url = strings.TrimLeftFunc(url, func(r rune) bool { return r <= ' ' })
	url = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(url)
	scheme, netloc, query, fragment := "", "", "", ""
	if i := strings.IndexByte(url, ':'); i > 0 && isLetter(url[0]) {
		valid := true
		for _, c := range []byte(url[:i]) {
			if !isLetter(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
				valid = false
				break
			}
		}
		if valid {
			scheme, url = strings.ToLower(url[:i]), url[i+1:]
		}
	}
	if strings.HasPrefix(url, "//") {
		end := len(url)
		if i := strings.IndexAny(url[2:], "/?#"); i >= 0 {
			end = i + 2
		}
		netloc, url = url[2:end], url[end:]
		open, closed := strings.Contains(netloc, "["), strings.Contains(netloc, "]")
		if open != closed {
			return nil, errorf("Invalid IPv6 URL")
		}
		if open {
			if err := checkBracketedNetloc(netloc); err != nil {
				return nil, err
			}
		}
	}
	url, fragment, _ = strings.Cut(url, "#")
	url, query, _ = strings.Cut(url, "?")
	if err := checkNetlocNFKC(netloc); err != nil {
		return nil, err
	}
	out := map[string]any{"scheme": scheme, "netloc": netloc, "path": url, "query": query, "fragment": fragment,
		"username": nil, "password": nil, "hostname": nil, "port": nil}
	if at := strings.LastIndexByte(netloc, '@'); at >= 0 {
		user, pass, hasPass := strings.Cut(netloc[:at], ":")
		out["username"] = user
		if hasPass {
			out["password"] = pass
		}
	}
	host, port := hostInfo(netloc)
	if host != "" {
		h, zone, hasZone := strings.Cut(host, "%")
		h = strings.ToLower(h)
		if hasZone {
			h += "%" + zone
		}
		out["hostname"] = h
	}
	if port != "" {
		n := 0
		for _, c := range []byte(port) {
			if !isDigit(c) || n > 1<<20 {
				return nil, errorf("Port could not be cast to integer value as %s", Repr(port))
			}
			n = n*10 + int(c-'0')
		}
		if n > 65535 {
			return nil, errorf("Port out of range 0-65535")
		}
		out["port"] = n
	}
	return out, nil
}

// hostInfo splits the host and port out of a netloc, as SplitResult does.
func hostInfo(netloc string) (host, port string) {
	hostinfo := netloc[strings.LastIndexByte(netloc, '@')+1:]
	if _, bracketed, ok := strings.Cut(hostinfo, "["); ok {
		host, rest, _ := strings.Cut(bracketed, "]")
		_, port, _ = strings.Cut(rest, ":")
		return host, port
	}
	host, port, _ = strings.Cut(hostinfo, ":")
	return host, port
}

var ipvFuture = regexp.MustCompile(`\Av[a-fA-F0-9]+\..+\z`)

// checkBracketedNetloc validates "[host]:port": nothing before the
// bracket, only a port after it, and an IPv6 or IPvFuture address inside.
func checkBracketedNetloc(netloc string) error {
	hostinfo := netloc[strings.LastIndexByte(netloc, '@')+1:]
	before, bracketed, ok := strings.Cut(hostinfo, "[")
	host := ""
	if ok {
		if before != "" {
			return errorf("Invalid IPv6 URL")
		}
		var rest string
		host, rest, _ = strings.Cut(bracketed, "]")
		if rest != "" && !strings.HasPrefix(rest, ":") {
			return errorf("Invalid IPv6 URL")
		}
	} else {
		host, _, _ = strings.Cut(hostinfo, ":")
	}
	if strings.HasPrefix(host, "v") {
		if !ipvFuture.MatchString(host) {
			return errorf("IPvFuture address is invalid")
		}
		return nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return errorf("%s does not appear to be an IPv4 or IPv6 address", Repr(host))
	}
	if ip.Is4() {
		return errorf("An IPv4 address cannot be in brackets")
	}
	return nil
}

// nfkcURLSyntax are the characters whose NFKC normalization contains one
// of / ? # @ : (the fullwidth and small forms, ℀ ℁ ℅ ℆, ⁇ ⁈ ⁉, ⩴),
// which Python refuses in a netloc.
var nfkcURLSyntax = map[rune]bool{
	0x2047: true, 0x2048: true, 0x2049: true, 0x2100: true, 0x2101: true, 0x2105: true, 0x2106: true,
	0x2a74: true, 0xfe13: true, 0xfe16: true, 0xfe55: true, 0xfe56: true, 0xfe5f: true, 0xfe6b: true,
	0xff03: true, 0xff0f: true, 0xff1a: true, 0xff1f: true, 0xff20: true,
}

func checkNetlocNFKC(netloc string) error {
	for i := 0; i < len(netloc); {
		r, n := utf8.DecodeRuneInString(netloc[i:])
		if nfkcURLSyntax[r] {
			return errorf("netloc '%s' contains invalid characters under NFKC normalization", netloc)
		}
		i += n
	}
	return nil
}
