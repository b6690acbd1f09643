package ssh

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skeema/knownhosts"
	xssh "golang.org/x/crypto/ssh"
	xknownhosts "golang.org/x/crypto/ssh/knownhosts"
)

func newTestKey(t *testing.T) (xssh.PublicKey, xssh.Signer) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := xssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s.PublicKey(), s
}

// The index answers every check as golang.org/x/crypto/ssh/knownhosts
// with skeema/knownhosts's rules does (the library tender used before
// the index): literal, bracketed, negated, wildcard and hashed names,
// several files, @cert-authority and @revoked, known, changed and
// unknown hosts, certificates; the same errors with the same keys in the
// same order, and the same algorithms to offer.
func TestKnownHostsIndexAgreesWithXCrypto(t *testing.T) {
	t.Parallel()
	k1, _ := newTestKey(t)
	k2, _ := newTestKey(t)
	k3, _ := newTestKey(t)
	bad, _ := newTestKey(t)
	caPub, ca := newTestKey(t)
	line := func(hosts string, k xssh.PublicKey) string {
		return hosts + " " + strings.TrimSpace(string(xssh.MarshalAuthorizedKey(k)))
	}
	dir := t.TempDir()
	one := filepath.Join(dir, "known_hosts")
	two := filepath.Join(dir, "known_hosts2")
	os.WriteFile(one, []byte(strings.Join([]string{
		line("web1,10.0.0.1", k1),
		line("[web1]:2222", k2),
		line("web1", k3),
		line("*.example.com,!secret.example.com", k1),
		line("db?.internal", k2),
		line(xknownhosts.HashHostname("hashed.host"), k3),
		line(xknownhosts.HashHostname("[hashed.host]:2200"), k1),
		line("@cert-authority *.certs.test", caPub),
		line("@revoked *", bad),
		line("fe80::1", k2),
		line("[::1]:2022,plain", k3),
		line("a.example.com", k2), // after a wildcard that names it
	}, "\n")+"\n"), 0o600)
	os.WriteFile(two, []byte(strings.Join([]string{
		line("web1", k2),
		line("*.example.com", k3),
		line("other,!web1", k1),
	}, "\n")+"\n"), 0o600)
	cert := &xssh.Certificate{Key: k1, CertType: xssh.HostCert, ValidPrincipals: []string{"a.certs.test"}, ValidBefore: xssh.CertTimeInfinity}
	if err := cert.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	for _, files := range [][]string{{one}, {two}, {one, two}, {two, one}} {
		want, err := knownhosts.NewDB(files...)
		if err != nil {
			t.Fatal(err)
		}
		db, err := readKnownHosts(files, nil)
		if err != nil || len(db.warnings) != 0 {
			t.Fatal(err, db.warnings)
		}
		for _, host := range []string{"web1:22", "web1:2222", "web1:2200", "10.0.0.1:22", "a.example.com:22", "a.example.com:2200",
			"secret.example.com:22", "db1.internal:22", "db12.internal:22", "hashed.host:22", "hashed.host:2200", "hashed.host:23",
			"a.certs.test:22", "b.certs.test:22", "[fe80::1]:22", "[::1]:2022", "plain:22", "other:22", "nowhere:22"} {
			_, p, _ := net.SplitHostPort(host)
			remote := &net.TCPAddr{IP: net.ParseIP("192.0.2.9"), Port: atoiOr(p, 22)}
			for i, key := range []xssh.PublicKey{k1, k2, k3, bad, cert} {
				got := db.HostKeyCallback()(host, remote, key)
				exp := want.HostKeyCallback()(host, remote, key)
				if exp != nil && strings.Contains(exp.Error(), "::1:22") {
					// skeema's port-22 fallback writes an IPv6 host
					// unbracketed (::1:22), which cannot be split: it
					// fails. The index brackets it, and answers.
					if got == nil || strings.Contains(got.Error(), "::1:22") && !strings.Contains(got.Error(), "[::1]:22") {
						t.Errorf("%s with key %d: %v", host, i+1, got)
					}
					continue
				}
				if d := diffKHErr(got, exp); d != "" {
					t.Errorf("%v: %s with key %d: %s", files, host, i+1, d)
				}
			}
			if got, exp := db.HostKeyAlgorithms(host), want.HostKeyAlgorithms(host); !slices.Equal(got, exp) {
				t.Errorf("%v: %s: algorithms %v, want %v", files, host, got, exp)
			}
		}
	}
}

func atoiOr(s string, def int) int {
	n := 0
	if _, err := fmt.Sscan(s, &n); err != nil {
		return def
	}
	return n
}

// diffKHErr says how two answers of a host key check differ ("" when
// they agree).
func diffKHErr(got, want error) string {
	if (got == nil) != (want == nil) {
		return fmt.Sprintf("got %v, want %v", got, want)
	}
	if got == nil {
		return ""
	}
	var gk, wk *xknownhosts.KeyError
	if errors.As(want, &wk) {
		if !errors.As(got, &gk) {
			return fmt.Sprintf("got %v, want %v", got, want)
		}
		if len(gk.Want) != len(wk.Want) {
			return fmt.Sprintf("keys %v, want %v", gk.Want, wk.Want)
		}
		for i := range gk.Want {
			g, w := gk.Want[i], wk.Want[i]
			if g.Filename != w.Filename || g.Line != w.Line || string(g.Key.Marshal()) != string(w.Key.Marshal()) {
				return fmt.Sprintf("keys %v, want %v", gk.Want, wk.Want)
			}
		}
		return ""
	}
	var gr, wr *xknownhosts.RevokedError
	if errors.As(want, &wr) {
		if !errors.As(got, &gr) || gr.Revoked.Line != wr.Revoked.Line || gr.Revoked.Filename != wr.Revoked.Filename {
			return fmt.Sprintf("got %v, want %v", got, want)
		}
		return ""
	}
	if got.Error() != want.Error() {
		return fmt.Sprintf("got %q, want %q", got, want)
	}
	return ""
}

// globMatch agrees with the plain recursive rule on awkward patterns.
func TestGlobMatch(t *testing.T) {
	t.Parallel()
	var naive func(p, s string) bool
	naive = func(p, s string) bool {
		if p == "" {
			return s == ""
		}
		if p[0] == '*' {
			for i := 0; i <= len(s); i++ {
				if naive(p[1:], s[i:]) {
					return true
				}
			}
			return false
		}
		return s != "" && (p[0] == '?' || p[0] == s[0]) && naive(p[1:], s[1:])
	}
	pats := []string{"", "*", "?", "a*", "*a", "a*b", "*.example.com", "db?.internal", "**", "a?c*", "*a*a*", "?*?"}
	strs := []string{"", "a", "ab", "abc", "aab", "x.example.com", "example.com", "db1.internal", "db12.internal", "aaaa", "ba"}
	for _, p := range pats {
		for _, s := range strs {
			if got, want := globMatch(p, s), naive(p, s); got != want {
				t.Errorf("globMatch(%q, %q) = %v, want %v", p, s, got, want)
			}
		}
	}
	// Bounded: a hostile pattern costs no more than len(p)*len(s).
	if globMatch(strings.Repeat("*a", 50)+"b", strings.Repeat("a", 5000)) {
		t.Error("matched")
	}
}
