package shared

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// PlainError is an error a module reports as its message alone, as
// Ansible's fetch_url reports a ValueError (an authentication scheme its
// handlers do not know, for one).
type PlainError struct{ Msg string }

// Error returns the message alone.
func (e *PlainError) Error() string { return e.Msg }

// basicChallenge is Python's AbstractBasicAuthHandler.rx: a scheme with a
// realm, several to a header.
var basicChallenge = regexp.MustCompile(`(?i)(?:^|,)[ \t]*([^ \t,]+)[ \t]+realm=(["']?)([^"']*)`)

// answerChallenge is the Authorization a 401's challenges get from
// Python's digest handler (tried first: the first challenge's scheme is
// Digest) or basic handler (the first Basic challenge with a realm); ""
// when none answers them; a PlainError with Python's message for a
// scheme neither knows.
func answerChallenge(headers []string, req *http.Request, user, pass string) (string, error) {
	if len(headers) == 0 {
		return "", nil
	}
	first := strings.Fields(headers[0])
	scheme := ""
	if len(first) > 0 {
		scheme = first[0]
	}
	switch strings.ToLower(scheme) {
	case "digest":
		return digestAuth(headers[0], req, user, pass)
	case "basic":
	default:
		return "", &PlainError{fmt.Sprintf("AbstractDigestAuthHandler does not support the following scheme: '%s'", scheme)}
	}
	unsupported := ""
	for _, h := range headers {
		found := false
		for _, m := range basicChallenge.FindAllStringSubmatchIndex(h, -1) {
			// Python's regex ends with \2: the realm's closing quote.
			if q := h[m[4]:m[5]]; q != "" && !strings.HasPrefix(h[m[1]:], q) {
				continue
			}
			found = true
			if s := h[m[2]:m[3]]; !strings.EqualFold(s, "basic") {
				unsupported = s
				continue
			}
			return basicAuth(user, pass), nil
		}
		if f := strings.Fields(h); !found && len(f) > 0 && !strings.EqualFold(f[0], "basic") {
			unsupported = f[0]
		}
	}
	if unsupported != "" {
		return "", &PlainError{fmt.Sprintf("AbstractBasicAuthHandler does not support the following scheme: '%s'", unsupported)}
	}
	return "", nil
}

// digestAuth answers a Digest challenge as Python's
// AbstractDigestAuthHandler does: MD5 or SHA, qop auth or none.
func digestAuth(challenge string, req *http.Request, user, pass string) (string, error) {
	_, rest, _ := strings.Cut(strings.TrimSpace(challenge), " ")
	p := map[string]string{}
	for _, kv := range splitChallenge(rest) {
		k, v, _ := strings.Cut(kv, "=")
		p[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(v), `"`)
	}
	realm, nonce := p["realm"], p["nonce"]
	if realm == "" || nonce == "" {
		return "", nil
	}
	algo := p["algorithm"]
	if algo == "" {
		algo = "MD5"
	}
	var h func(string) string
	switch algo {
	case "MD5":
		h = func(s string) string { b := md5.Sum([]byte(s)); return hex.EncodeToString(b[:]) }
	case "SHA":
		h = func(s string) string { b := sha1.Sum([]byte(s)); return hex.EncodeToString(b[:]) }
	default:
		return "", &PlainError{fmt.Sprintf("Unsupported digest authentication algorithm '%s'", algo)}
	}
	uri := req.URL.RequestURI()
	ha1, ha2 := h(user+":"+realm+":"+pass), h(req.Method+":"+uri)
	var resp, tail string
	qop := p["qop"]
	switch {
	case qop == "":
		resp = h(ha1 + ":" + nonce + ":" + ha2)
	case slices.Contains(strings.Split(qop, ","), "auth"):
		var rb [8]byte
		if _, err := rand.Read(rb[:]); err != nil {
			return "", err
		}
		cnonce := hex.EncodeToString(rb[:])
		resp = h(ha1 + ":" + nonce + ":00000001:" + cnonce + ":auth:" + ha2)
		tail = fmt.Sprintf(`, qop=auth, nc=00000001, cnonce="%s"`, cnonce)
	default:
		return "", fmt.Errorf("qop '%s' is not supported.", qop)
	}
	base := fmt.Sprintf(`username="%s", realm="%s", nonce="%s", uri="%s", response="%s"`, user, realm, nonce, uri, resp)
	if o := p["opaque"]; o != "" {
		base += fmt.Sprintf(`, opaque="%s"`, o)
	}
	return "Digest " + base + fmt.Sprintf(`, algorithm="%s"`, algo) + tail, nil
}

// splitChallenge splits a challenge's parameters on the commas outside
// quotes.
func splitChallenge(s string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
