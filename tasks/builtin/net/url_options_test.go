package net

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/md5"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	stdnet "net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// clearProxyEnv leaves the test's host (this machine) without proxy
// variables or a netrc, whatever the machine running the tests has.
func clearProxyEnv(t *testing.T) {
	for _, k := range []string{"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "NETRC"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("HOME", t.TempDir())
}

// recorder is a server that keeps each request's headers by path.
type recorder struct {
	mu   sync.Mutex
	seen map[string][]http.Header
}

func (r *recorder) note(req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string][]http.Header{}
	}
	r.seen[req.URL.Path] = append(r.seen[req.URL.Path], req.Header.Clone())
}

func (r *recorder) headers(path string) []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seen[path]
}

// TestURLBasicAuthOnChallenge: credentials go up front only with
// force_basic_auth; otherwise only after a 401 asking for Basic (or
// Digest) authentication, so a server that does not ask never sees them.
func TestURLBasicAuthOnChallenge(t *testing.T) {
	clearProxyEnv(t)
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		switch r.URL.Path {
		case "/open":
			w.Write([]byte("open"))
		case "/basic":
			if u, p, ok := r.BasicAuth(); !ok || u != "bob" || p != "s3cret" {
				w.Header().Set("WWW-Authenticate", `Basic realm="tender"`)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.Write([]byte("welcome"))
		case "/digest":
			a := r.Header.Get("Authorization")
			if !strings.HasPrefix(a, "Digest ") {
				w.Header().Set("WWW-Authenticate", `Digest realm="r", nonce="n0", qop="auth", opaque="op"`)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			p := map[string]string{}
			for _, kv := range strings.Split(strings.TrimPrefix(a, "Digest "), ", ") {
				k, v, _ := strings.Cut(kv, "=")
				p[k] = strings.Trim(v, `"`)
			}
			h := func(s string) string { b := md5.Sum([]byte(s)); return hex.EncodeToString(b[:]) }
			want := h(h("bob:r:s3cret") + ":n0:" + p["nc"] + ":" + p["cnonce"] + ":auth:" + h("GET:/digest"))
			if p["response"] != want || p["opaque"] != "op" || p["username"] != "bob" {
				w.WriteHeader(http.StatusForbidden)
				return
			}
			w.Write([]byte("digested"))
		case "/bearer":
			w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer srv.Close()
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	creds := tasks.Args{"url_username": "bob", "url_password": "s3cret", "return_content": true}
	run := func(path string, extra tasks.Args) tasks.Result {
		args := tasks.Args{"url": srv.URL + path}
		for k, v := range creds {
			args[k] = v
		}
		for k, v := range extra {
			args[k] = v
		}
		return modtest.RunMod(t, env, "uri", args)
	}
	if res := run("/open", nil); res.Failed || rec.headers("/open")[0].Get("Authorization") != "" {
		t.Errorf("credentials sent to a server that did not ask: %+v %v", res, rec.headers("/open"))
	}
	if res := run("/basic", nil); res.Failed || res.Data["content"] != "welcome" || len(rec.headers("/basic")) != 2 || rec.headers("/basic")[0].Get("Authorization") != "" {
		t.Errorf("basic after a challenge: %+v, %d requests", res, len(rec.headers("/basic")))
	}
	if res := run("/basic", tasks.Args{"force_basic_auth": true}); res.Failed || len(rec.headers("/basic")) != 3 {
		t.Errorf("force_basic_auth must send them up front, in one request: %+v, %d requests", res, len(rec.headers("/basic")))
	}
	if res := run("/digest", nil); res.Failed || res.Data["content"] != "digested" {
		t.Errorf("digest: %+v", res)
	}
	if res := run("/bearer", nil); !res.Failed || res.Msg != "AbstractDigestAuthHandler does not support the following scheme: 'Bearer'" {
		t.Errorf("an unknown scheme fails as Ansible's: %+v", res)
	}
	res := modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/basic", "dest": filepath.Join(t.TempDir(), "f"), "url_username": "bob", "url_password": "s3cret"})
	if res.Failed || !res.Changed {
		t.Errorf("get_url after a challenge: %+v", res)
	}
}

// TestURLUnredirectedHeadersAndDecompress: headers unredirected_headers
// names are not sent again on a redirect (an Ansible header they replaced
// comes back); gzip is decompressed as Python's urllib does: no
// Accept-Encoding of its own, the response's headers as they came,
// decompress: false keeps the bytes.
func TestURLUnredirectedHeadersAndDecompress(t *testing.T) {
	clearProxyEnv(t)
	rec := &recorder{}
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte("hello gzip"))
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		switch r.URL.Path {
		case "/from":
			http.Redirect(w, r, "/to", http.StatusFound)
		case "/gz":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(zipped.Bytes())
		default:
			w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	res := modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/from", "http_agent": "agent/1",
		"headers":              map[string]any{"X-Secret": "s", "X-Other": "o", "User-Agent": "custom"},
		"unredirected_headers": []any{"x-secret", "User-Agent"}})
	first, to := rec.headers("/from"), rec.headers("/to")
	if res.Failed || len(first) != 1 || len(to) != 1 {
		t.Fatalf("redirect: %+v", res)
	}
	if first[0].Get("X-Secret") != "s" || first[0].Get("User-Agent") != "custom" {
		t.Errorf("first request: %v", first[0])
	}
	if to[0].Get("X-Secret") != "" || to[0].Get("X-Other") != "o" || to[0].Get("User-Agent") != "agent/1" || to[0].Get("Referer") != "" {
		t.Errorf("redirected request: %v", to[0])
	}

	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/gz", "return_content": true})
	if res.Failed || res.Data["content"] != "hello gzip" || res.Data["content_encoding"] != "gzip" || rec.headers("/gz")[0].Get("Accept-Encoding") != "" {
		t.Errorf("decompress: %+v, request %v", res, rec.headers("/gz")[0])
	}
	res = modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/gz", "return_content": true, "decompress": false})
	if res.Failed || res.Data["content"] == "hello gzip" {
		t.Errorf("decompress: false must keep the gzip bytes: %+v", res)
	}
	dest := filepath.Join(t.TempDir(), "g")
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/gz", "dest": dest})
	if res.Failed || modtest.ReadFile(t, dest) != "hello gzip" {
		t.Errorf("get_url decompress: %+v", res)
	}
	dest2 := filepath.Join(t.TempDir(), "g")
	res = modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/gz", "dest": dest2, "decompress": false})
	if res.Failed || modtest.ReadFile(t, dest2) != zipped.String() {
		t.Errorf("get_url decompress: false: %+v", res)
	}
}

// TestURLForceAndIfModifiedSince: get_url's force asks caches for a fresh
// copy (cache-control: no-cache) instead of If-Modified-Since; uri's
// force changes nothing (Ansible's uri never passes it on), and a uri
// dest file makes the request conditional.
func TestURLForceAndIfModifiedSince(t *testing.T) {
	clearProxyEnv(t)
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		w.Write([]byte("body"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	dest := filepath.Join(dir, "f")
	for i, force := range []bool{false, false, true} {
		res := modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/g", "dest": dest, "force": force})
		h := rec.headers("/g")[i]
		if res.Failed || (h.Get("Cache-Control") == "no-cache") != force || (h.Get("If-Modified-Since") != "") != (i == 1) {
			t.Errorf("get_url run %d (force %v): %+v, sent %v", i, force, res, h)
		}
	}
	for i, force := range []bool{false, true} {
		res := modtest.RunMod(t, env, "uri", tasks.Args{"url": srv.URL + "/u", "dest": dest, "force": force, "status_code": []any{200, 304}})
		h := rec.headers("/u")[i]
		if res.Failed || h.Get("Cache-Control") != "" || h.Get("If-Modified-Since") == "" {
			t.Errorf("uri run %d (force %v): %+v, sent %v", i, force, res, h)
		}
	}
}

// selfSigned makes a certificate and its key, PEM encoded.
func selfSigned(t *testing.T, cn string) (certPEM, keyPEM []byte) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
}

// TestURLClientCertAndCiphers: client_cert and client_key (host files,
// the key possibly in the certificate's file) authenticate to a server
// that asks; a bad key fails without showing it. ciphers limits TLS 1.2's
// suites to the OpenSSL names given; what Go cannot offer is refused.
// use_gssapi is refused.
func TestURLClientCertAndCiphers(t *testing.T) {
	clearProxyEnv(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TLS.PeerCertificates) > 0 {
			fmt.Fprintf(w, "hello %s", r.TLS.PeerCertificates[0].Subject.CommonName)
			return
		}
		w.Write([]byte("anonymous"))
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert, MaxVersion: tls.VersionTLS12,
		CipherSuites: []uint16{tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}}
	srv.StartTLS()
	defer srv.Close()
	dir := t.TempDir()
	env, _ := modtest.TestEnv(t, dir, nil)
	certPEM, keyPEM := selfSigned(t, "agent-7")
	certFile, keyFile, both := filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem"), filepath.Join(dir, "both.pem")
	os.WriteFile(certFile, certPEM, 0o644)
	os.WriteFile(keyFile, keyPEM, 0o600)
	os.WriteFile(both, append(append([]byte{}, certPEM...), keyPEM...), 0o600)
	base := func(extra tasks.Args) tasks.Args {
		args := tasks.Args{"url": srv.URL + "/", "validate_certs": false, "return_content": true}
		for k, v := range extra {
			args[k] = v
		}
		return args
	}
	for _, c := range []struct {
		args tasks.Args
		want string
	}{
		{base(nil), "anonymous"},
		{base(tasks.Args{"client_cert": certFile, "client_key": keyFile}), "hello agent-7"},
		{base(tasks.Args{"client_cert": both}), "hello agent-7"},
		{base(tasks.Args{"ciphers": []any{"ECDHE-RSA-AES128-GCM-SHA256", "TLS_AES_128_GCM_SHA256"}}), "anonymous"},
	} {
		if res := modtest.RunMod(t, env, "uri", c.args); res.Failed || res.Data["content"] != c.want {
			t.Errorf("%v: %+v", c.args, res)
		}
	}
	otherCert, _ := selfSigned(t, "other")
	os.WriteFile(certFile, otherCert, 0o644)
	res, err := runURI(env, base(tasks.Args{"client_cert": certFile, "client_key": keyFile}))
	msg := res.Msg
	if err != nil {
		msg = err.Error()
	}
	if !res.Failed && err == nil || !strings.Contains(msg, "client_cert") || strings.Contains(msg, "PRIVATE KEY") || strings.Contains(msg, string(keyPEM[40:60])) {
		t.Errorf("a key that does not match: %+v %v", res, err)
	}
	if res := modtest.RunMod(t, env, "uri", base(tasks.Args{"ciphers": []any{"AES256-GCM-SHA384"}})); !res.Failed {
		t.Errorf("a suite the server does not take must fail the handshake: %+v", res)
	}
	for _, c := range []struct {
		args tasks.Args
		want string
	}{
		{base(tasks.Args{"ciphers": "ECDH+AESGCM:!aNULL"}), `ciphers: tender cannot honour "ECDH+AESGCM"`},
		{base(tasks.Args{"ciphers": []any{"DHE-RSA-AES128-GCM-SHA256"}}), `tender cannot honour "DHE-RSA-AES128-GCM-SHA256"`},
		{base(tasks.Args{"ciphers": []any{"TLS_AES_128_GCM_SHA256"}}), "No cipher can be selected"},
		{base(tasks.Args{"use_gssapi": true}), "use_gssapi: tender has no GSSAPI"},
	} {
		res, err := runURI(env, c.args)
		msg := res.Msg
		if err != nil {
			msg = err.Error()
		}
		if (!res.Failed && err == nil) || !strings.Contains(msg, c.want) {
			t.Errorf("%v: %+v %v, want %q", c.args, res, err, c.want)
		}
	}
}

// proxy is a forward proxy: absolute-form requests answered itself
// ("via proxy <url>"), CONNECT tunnelled; it keeps what it saw.
type proxy struct {
	mu   sync.Mutex
	seen []string
	auth []string
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.seen = append(p.seen, r.Method+" "+r.RequestURI)
	p.auth = append(p.auth, r.Header.Get("Proxy-Authorization"))
	p.mu.Unlock()
	if r.Method != http.MethodConnect {
		fmt.Fprintf(w, "via proxy %s", r.RequestURI)
		return
	}
	up, err := stdnet.Dial("tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusOK)
	c, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		return
	}
	go func() { io.Copy(up, buf); up.Close() }()
	io.Copy(c, up)
	c.Close()
}

func (p *proxy) log() ([]string, []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...), append([]string(nil), p.auth...)
}

// TestURLUseProxy: the host's http_proxy and https_proxy (an https URL
// through a CONNECT tunnel) are used as Ansible's module on the host uses
// them, with the proxy's credentials; no_proxy and use_proxy: false go
// direct.
func TestURLUseProxy(t *testing.T) {
	clearProxyEnv(t)
	px := &proxy{}
	psrv := httptest.NewServer(px)
	defer psrv.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("direct")) }))
	defer srv.Close()
	tsrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secure")) }))
	defer tsrv.Close()
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	proxyURL := strings.Replace(psrv.URL, "http://", "http://pu:pp@", 1)
	t.Setenv("http_proxy", proxyURL)
	t.Setenv("HTTPS_PROXY", strings.TrimPrefix(psrv.URL, "http://"))
	uri := func(u string, extra tasks.Args) tasks.Result {
		args := tasks.Args{"url": u, "return_content": true, "validate_certs": false}
		for k, v := range extra {
			args[k] = v
		}
		return modtest.RunMod(t, env, "uri", args)
	}
	before := cc.Runs
	if res := uri(srv.URL+"/a", nil); res.Failed || res.Data["content"] != "via proxy "+srv.URL+"/a" {
		t.Errorf("http_proxy: %+v", res)
	}
	if cc.Runs != before+1 {
		t.Errorf("the host's environment must cost one round trip, not %d", cc.Runs-before)
	}
	if res := uri(tsrv.URL+"/b", nil); res.Failed || res.Data["content"] != "secure" {
		t.Errorf("https_proxy: %+v", res)
	}
	seen, auth := px.log()
	if len(seen) != 2 || seen[1] != "CONNECT "+strings.TrimPrefix(tsrv.URL, "https://") || auth[0] != "Basic cHU6cHA=" || auth[1] != "" {
		t.Errorf("the proxy saw %q with %q", seen, auth)
	}
	if res := uri(srv.URL+"/c", tasks.Args{"use_proxy": false}); res.Failed || res.Data["content"] != "direct" {
		t.Errorf("use_proxy: false: %+v", res)
	}
	t.Setenv("no_proxy", "example.com, .127.0.0.1")
	if res := uri(srv.URL+"/d", nil); res.Failed || res.Data["content"] != "direct" {
		t.Errorf("no_proxy: %+v", res)
	}
	if seen, _ := px.log(); len(seen) != 2 {
		t.Errorf("use_proxy: false or no_proxy went through the proxy: %q", seen)
	}
	os.Unsetenv("no_proxy")
	dest := filepath.Join(t.TempDir(), "f")
	if res := modtest.RunMod(t, env, "get_url", tasks.Args{"url": srv.URL + "/e", "dest": dest}); res.Failed || modtest.ReadFile(t, dest) != "via proxy "+srv.URL+"/e" {
		t.Errorf("get_url through http_proxy: %+v", res)
	}
	t.Setenv("http_proxy", "socks5://"+strings.TrimPrefix(psrv.URL, "http://"))
	if res := uri(srv.URL+"/f", nil); !res.Failed || !strings.Contains(res.Msg, "unknown url type: socks5") {
		t.Errorf("a socks proxy fails as urllib's: %+v", res)
	}
}

// TestURLNetrc: without a user name, the host's ~/.netrc (or NETRC) entry
// for the URL's host is sent as Basic credentials; use_netrc: false or a
// user name leaves it alone; a ~/.netrc others can read fails as
// Python's netrc does.
func TestURLNetrc(t *testing.T) {
	clearProxyEnv(t)
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	home := os.Getenv("HOME")
	netrc := filepath.Join(home, ".netrc")
	os.WriteFile(netrc, []byte("# hosts\nmachine 127.0.0.1 login nina password \"n3t rc\"\ndefault login anon password x\n"), 0o600)
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	n := 0
	run := func(extra tasks.Args) (tasks.Result, string) {
		args := tasks.Args{"url": srv.URL + "/n"}
		for k, v := range extra {
			args[k] = v
		}
		res := modtest.RunMod(t, env, "uri", args)
		h := rec.headers("/n")
		if len(h) <= n {
			return res, "(no request)"
		}
		n = len(h)
		return res, h[n-1].Get("Authorization")
	}
	if res, a := run(nil); res.Failed || a != basic("nina", "n3t rc") {
		t.Errorf("netrc: %+v, sent %q", res, a)
	}
	if res, a := run(tasks.Args{"use_netrc": false}); res.Failed || a != "" {
		t.Errorf("use_netrc: false: %+v, sent %q", res, a)
	}
	if res, a := run(tasks.Args{"url_username": "u", "url_password": "p"}); res.Failed || a != "" {
		t.Errorf("a user name leaves netrc alone (and waits for a challenge): %+v, sent %q", res, a)
	}
	os.Chmod(netrc, 0o644)
	if res, _ := run(nil); !res.Failed || res.Msg != "An unknown error occurred: ~/.netrc access too permissive: access permissions must restrict access to only the owner (None, line None)" {
		t.Errorf("a readable ~/.netrc: %+v", res)
	}
	other := filepath.Join(t.TempDir(), "netrc")
	os.WriteFile(other, []byte("machine 127.0.0.1\n  login zed\n  password z\n"), 0o644)
	t.Setenv("NETRC", other)
	if res, a := run(nil); res.Failed || a != basic("zed", "z") {
		t.Errorf("NETRC (not checked as ~/.netrc is): %+v, sent %q", res, a)
	}
}

// runURI runs uri, returning its error too.
func runURI(env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	return uriModule{}.Run(context.Background(), env, args)
}

func basic(u, p string) string {
	r, _ := http.NewRequest("GET", "http://x/", nil)
	r.SetBasicAuth(u, p)
	return r.Header.Get("Authorization")
}
