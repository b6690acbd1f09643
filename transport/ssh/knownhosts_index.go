package ssh

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"slices"
	"sort"
	"strings"

	"github.com/skeema/knownhosts"
	xssh "golang.org/x/crypto/ssh"
	xknownhosts "golang.org/x/crypto/ssh/knownhosts"
)

// khAddr is a host and port as known_hosts patterns name them: a
// pattern without a port names port 22.
type khAddr struct{ host, port string }

// normalized is the address as a hashed entry hashes it: host alone on
// port 22, else [host]:port.
func (a khAddr) normalized() string {
	h := a.host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return knownhosts.Normalize(h + ":" + a.port)
}

// khPattern is one comma-separated pattern of an entry's host field.
type khPattern struct {
	negate bool
	addr   khAddr
	// glob: the host holds * or ?, so it is matched as a pattern.
	glob bool
}

func (p khPattern) match(a khAddr) bool {
	if p.addr.port != a.port {
		return false
	}
	if !p.glob {
		return p.addr.host == a.host
	}
	return globMatch(p.addr.host, a.host)
}

// globMatch matches s against pattern, where * stands for any run of
// characters and ? for one, as known_hosts patterns do. Its cost is
// bounded by len(pattern)*len(s): a * tries each rest of s once.
func globMatch(pattern, s string) bool {
	px, sx := 0, 0
	star, next := -1, 0
	for sx < len(s) {
		switch {
		case px < len(pattern) && (pattern[px] == '?' || pattern[px] == s[sx]) && pattern[px] != '*':
			px++
			sx++
		case px < len(pattern) && pattern[px] == '*':
			star, next = px, sx
			px++
		case star >= 0:
			px, next = star+1, next+1
			sx = next
		default:
			return false
		}
	}
	for px < len(pattern) && pattern[px] == '*' {
		px++
	}
	return px == len(pattern)
}

// khEntry is one known_hosts line that names hosts (not @revoked).
type khEntry struct {
	cert bool // @cert-authority
	// patterns is the host field; nil for a hashed one (salt, hash).
	patterns   []khPattern
	salt, hash []byte
	// wildcard: the host field holds a * outside a bracketed
	// address's port, which also matches the host on port 22 when it
	// is reached on another (the check's fallback).
	wildcard bool
	known    xknownhosts.KnownKey
}

func (e *khEntry) match(a khAddr) bool {
	if e.patterns == nil {
		mac := hmac.New(sha1.New, e.salt)
		mac.Write([]byte(a.normalized()))
		return hmac.Equal(mac.Sum(nil), e.hash)
	}
	matched := false
	for _, p := range e.patterns {
		if p.match(a) {
			if p.negate {
				return false
			}
			matched = true
		}
	}
	return matched
}

// khIndex is the known_hosts files parsed once, entries found by host:
// an entry whose hosts are all literal names is listed under each of
// them; the others (hashed names, wildcards) are tried for every host.
// A host's check costs the entries that name it and those others, not
// the whole file. The answers are golang.org/x/crypto/ssh/knownhosts's
// (with skeema/knownhosts's wildcard and algorithm rules): the same
// errors, the same keys in the same order.
type khIndex struct {
	entries []khEntry
	byAddr  map[khAddr][]int32
	others  []int32 // hashed and wildcard entries, in file order
	certs   []int32 // @cert-authority entries
	revoked map[string]*xknownhosts.KnownKey
	anyWild bool
}

func newKHIndex() *khIndex {
	return &khIndex{byAddr: map[khAddr][]int32{}, revoked: map[string]*xknownhosts.KnownKey{}}
}

// add parses one trimmed, non-empty, non-comment line of file and adds
// it; an error says why the line is not an entry (it is then left out).
func (x *khIndex) add(line []byte, file string, n int) error {
	marker := ""
	if w, next := nextWord(line); w == "@cert-authority" || w == "@revoked" {
		marker, line = w, next
	}
	host, rest := nextWord(line)
	if strings.HasPrefix(host, "@") {
		return fmt.Errorf("unexpected marker %q", host)
	}
	if len(rest) == 0 {
		return errors.New("no key type")
	}
	keyType, rest := nextWord(rest)
	if len(rest) == 0 {
		return errors.New("no key")
	}
	blob, _ := nextWord(rest)
	raw, err := base64.StdEncoding.DecodeString(blob)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	key, err := xssh.ParsePublicKey(raw)
	if err != nil {
		return fmt.Errorf("key: %w", err)
	}
	if key.Type() != keyType {
		return fmt.Errorf("the key is %s, the line says %s", key.Type(), keyType)
	}
	known := xknownhosts.KnownKey{Key: key, Filename: file, Line: n}
	if marker == "@revoked" {
		x.revoked[plainBlob(key)] = &known
		return nil
	}
	e := khEntry{cert: marker == "@cert-authority", known: known}
	if i := strings.IndexByte(host, '*'); i >= 0 && !strings.Contains(host[i:], "]:") {
		e.wildcard = true
	}
	literal := true
	if host[0] == '|' {
		if e.salt, e.hash, err = parseHashedHost(host); err != nil {
			return err
		}
		literal = false
	} else {
		for _, p := range strings.Split(host, ",") {
			if p == "" {
				continue
			}
			pat := khPattern{}
			if p[0] == '!' {
				pat.negate, p = true, p[1:]
			}
			if p == "" {
				return errors.New("negation without a host name")
			}
			h, port, err := net.SplitHostPort(p)
			if err != nil {
				if p[0] == '[' {
					return err
				}
				h, port = p, "22"
			}
			pat.addr = khAddr{h, port}
			pat.glob = strings.ContainsAny(h, "*?")
			if pat.glob && !pat.negate {
				literal = false
			}
			e.patterns = append(e.patterns, pat)
		}
		if e.patterns == nil {
			e.patterns = []khPattern{} // no host: matches none
		}
	}
	i := int32(len(x.entries))
	x.entries = append(x.entries, e)
	x.anyWild = x.anyWild || e.wildcard
	if e.cert {
		x.certs = append(x.certs, i)
	}
	if !literal {
		x.others = append(x.others, i)
		return nil
	}
	for _, p := range e.patterns {
		if !p.negate {
			if l := x.byAddr[p.addr]; len(l) == 0 || l[len(l)-1] != i {
				x.byAddr[p.addr] = append(l, i)
			}
		}
	}
	return nil
}

// parseHashedHost reads |1|salt|hash.
func parseHashedHost(host string) (salt, hash []byte, err error) {
	parts := strings.Split(host, "|")
	if len(parts) != 4 {
		return nil, nil, fmt.Errorf("hashed host has %d fields, want 3", len(parts)-1)
	}
	if parts[1] != "1" {
		return nil, nil, fmt.Errorf("hashed host: hash type %q, want 1", parts[1])
	}
	if salt, err = base64.StdEncoding.DecodeString(parts[2]); err != nil {
		return nil, nil, fmt.Errorf("hashed host: %w", err)
	}
	if hash, err = base64.StdEncoding.DecodeString(parts[3]); err != nil {
		return nil, nil, fmt.Errorf("hashed host: %w", err)
	}
	return salt, hash, nil
}

// plainBlob is a key's wire form, a certificate's own key's for a
// certificate: what @revoked lines are looked up by.
func plainBlob(key xssh.PublicKey) string {
	if c, ok := key.(*xssh.Certificate); ok {
		return string(c.Key.Marshal())
	}
	return string(key.Marshal())
}

// candidates are the entries that may name a, in file order.
func (x *khIndex) candidates(a khAddr) []int32 {
	lit := x.byAddr[a]
	if len(x.others) == 0 {
		return lit
	}
	if len(lit) == 0 {
		return x.others
	}
	out := make([]int32, 0, len(lit)+len(x.others))
	out = append(append(out, lit...), x.others...)
	slices.Sort(out)
	return out
}

// checkAddr finds key among a's entries: nil when one holds it, else a
// KeyError listing the keys a's entries hold (none: a is unknown).
func (x *khIndex) checkAddr(a khAddr, key xssh.PublicKey) error {
	ke := &xknownhosts.KeyError{}
	blob := key.Marshal()
	for _, i := range x.candidates(a) {
		e := &x.entries[i]
		if !e.match(a) {
			continue
		}
		ke.Want = append(ke.Want, e.known)
		if bytes.Equal(e.known.Key.Marshal(), blob) {
			return nil
		}
	}
	return ke
}

// check is the check of a plain (not certificate) host key: revoked
// keys first, then the entries of the host name the connection was
// made to (else of the remote address).
func (x *khIndex) check(address string, remote net.Addr, key xssh.PublicKey) error {
	if r := x.revoked[plainBlob(key)]; r != nil {
		return &xknownhosts.RevokedError{Revoked: *r}
	}
	if address == "" {
		address = remote.String()
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("knownhosts: SplitHostPort(%s): %v", address, err)
	}
	return x.checkAddr(khAddr{host, port}, key)
}

// isHostAuthority reports whether key signs host certificates for
// address (a @cert-authority entry names it with key).
func (x *khIndex) isHostAuthority(key xssh.PublicKey, address string) bool {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return false
	}
	a, blob := khAddr{host, port}, key.Marshal()
	for _, i := range x.certs {
		e := &x.entries[i]
		if bytes.Equal(e.known.Key.Marshal(), blob) && e.match(a) {
			return true
		}
	}
	return false
}

func (x *khIndex) isRevoked(c *xssh.Certificate) bool {
	return x.revoked[plainBlob(c)] != nil || x.revoked[plainBlob(c.SignatureKey)] != nil
}

// callback checks a host's key: a certificate against the
// @cert-authority and @revoked entries, a plain key against the host's
// entries. A host reached on a port other than 22 that none names is
// also looked up on port 22, where only wildcard entries count.
func (x *khIndex) callback() xssh.HostKeyCallback {
	cc := &xssh.CertChecker{IsHostAuthority: x.isHostAuthority, IsRevoked: x.isRevoked, HostKeyFallback: x.check}
	if !x.anyWild {
		return cc.CheckHostKey
	}
	return func(hostname string, remote net.Addr, key xssh.PublicKey) error {
		err := cc.CheckHostKey(hostname, remote, key)
		if err == nil || knownhosts.IsHostKeyChanged(err) {
			return err
		}
		host, port, serr := net.SplitHostPort(hostname)
		if serr != nil || port == "" || port == "22" {
			return err
		}
		if t, ok := remote.(*net.TCPAddr); ok && t.Port != 22 {
			remote = &net.TCPAddr{IP: t.IP, Port: 22, Zone: t.Zone}
		}
		err = cc.CheckHostKey(net.JoinHostPort(host, "22"), remote, key)
		var ke *xknownhosts.KeyError
		if errors.As(err, &ke) && len(ke.Want) > 0 {
			var wild []xknownhosts.KnownKey
			for _, k := range ke.Want {
				if x.wildcardAt(k.Filename, k.Line) {
					wild = append(wild, k)
				}
			}
			err = &xknownhosts.KeyError{Want: wild}
		}
		return err
	}
}

// wildcardAt reports whether the entry at file:line is a wildcard one.
func (x *khIndex) wildcardAt(file string, line int) bool {
	for _, i := range x.others {
		e := &x.entries[i]
		if e.known.Filename == file && e.known.Line == line {
			return e.wildcard
		}
	}
	return false
}

// noKey stands for a key no entry holds, to list the keys a host has.
type noKey struct{}

func (noKey) Type() string                         { return "none" }
func (noKey) Marshal() []byte                      { return []byte{} }
func (noKey) Verify([]byte, *xssh.Signature) error { return errors.New("no key") }

// hostKeyAlgorithms are the algorithms to offer the server at
// hostWithPort: those of the keys the files hold for it (certificate
// algorithms for @cert-authority ones; both RSA SHA-2 signatures before
// ssh-rsa), in file order, so that it presents a key the check can
// compare. None when the host is unknown.
func (x *khIndex) hostKeyAlgorithms(hostWithPort string) []string {
	var ke *xknownhosts.KeyError
	if err := x.callback()(hostWithPort, &net.TCPAddr{IP: net.IPv4zero}, noKey{}); !errors.As(err, &ke) {
		return nil
	}
	keys := slices.Clone(ke.Want)
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].Filename != keys[j].Filename {
			return keys[i].Filename < keys[j].Filename
		}
		return keys[i].Line < keys[j].Line
	})
	var algos []string
	add := func(a string) {
		if a != "" && !slices.Contains(algos, a) {
			algos = append(algos, a)
		}
	}
	for _, k := range keys {
		cert := x.certAt(k.Filename, k.Line)
		typ := k.Key.Type()
		if typ == xssh.KeyAlgoRSA {
			add(algoOf(xssh.KeyAlgoRSASHA512, cert))
			add(algoOf(xssh.KeyAlgoRSASHA256, cert))
		}
		add(algoOf(typ, cert))
	}
	return algos
}

// certAt reports whether the entry at file:line is @cert-authority.
func (x *khIndex) certAt(file string, line int) bool {
	for _, i := range x.certs {
		if e := &x.entries[i]; e.known.Filename == file && e.known.Line == line {
			return true
		}
	}
	return false
}

// algoOf is the algorithm of a key type, or of a certificate of it.
func algoOf(typ string, cert bool) string {
	if !cert {
		return typ
	}
	switch typ {
	case xssh.KeyAlgoRSA:
		return xssh.CertAlgoRSAv01
	case xssh.KeyAlgoRSASHA256:
		return xssh.CertAlgoRSASHA256v01
	case xssh.KeyAlgoRSASHA512:
		return xssh.CertAlgoRSASHA512v01
	case xssh.KeyAlgoDSA:
		return xssh.CertAlgoDSAv01
	case xssh.KeyAlgoECDSA256:
		return xssh.CertAlgoECDSA256v01
	case xssh.KeyAlgoSKECDSA256:
		return xssh.CertAlgoSKECDSA256v01
	case xssh.KeyAlgoECDSA384:
		return xssh.CertAlgoECDSA384v01
	case xssh.KeyAlgoECDSA521:
		return xssh.CertAlgoECDSA521v01
	case xssh.KeyAlgoED25519:
		return xssh.CertAlgoED25519v01
	case xssh.KeyAlgoSKED25519:
		return xssh.CertAlgoSKED25519v01
	}
	return ""
}
