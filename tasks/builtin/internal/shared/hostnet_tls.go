package shared

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// URLOptions reads the url_argument_spec options that shape the client
// (client_cert and client_key, read from the host; ciphers) into x, and
// refuses use_gssapi. Net and UseProxy are the caller's to set.
func URLOptions(ctx context.Context, env *tasks.Env, a tasks.Values, x *HTTPExtras) error {
	if a.Bool("use_gssapi") {
		return errors.New("use_gssapi: tender has no GSSAPI (Kerberos) authentication; leave use_gssapi false")
	}
	var err error
	if x.Ciphers, err = CipherSuites(a.Strings("ciphers")); err != nil {
		return err
	}
	x.Cert, err = ClientCert(ctx, env, a.Str("client_cert"), a.Str("client_key"))
	return err
}

// ClientCert reads the client certificate (a PEM chain, possibly holding
// the key too) and key from the host. Like Ansible's, a key without a
// certificate is not read: nil. Errors never quote the key.
func ClientCert(ctx context.Context, env *tasks.Env, certPath, keyPath string) (*tls.Certificate, error) {
	if certPath == "" {
		return nil, nil
	}
	certPEM, err := HostFile(ctx, env, certPath)
	if err != nil {
		return nil, fmt.Errorf("client_cert: cannot read %s: %v", certPath, err)
	}
	keyPEM := certPEM
	if keyPath != "" {
		if keyPEM, err = HostFile(ctx, env, keyPath); err != nil {
			return nil, fmt.Errorf("client_key: cannot read %s: %v", keyPath, err)
		}
	}
	c, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("client_cert %s / client_key %s: cannot load the certificate and its key: %v", certPath, OrDefault(keyPath, certPath), err)
	}
	return &c, nil
}

// HostFile reads a small file of the host (up to 1 MiB).
func HostFile(ctx context.Context, env *tasks.Env, p string) ([]byte, error) {
	var buf capped
	if err := env.Conn.Get(ctx, p, &buf); err != nil {
		return nil, err
	}
	return buf.b, nil
}

type capped struct{ b []byte }

func (c *capped) Write(p []byte) (int, error) {
	if len(c.b)+len(p) > 1<<20 {
		return 0, errors.New("the file is larger than 1 MiB")
	}
	c.b = append(c.b, p...)
	return len(p), nil
}

// openSSLSuites names, by OpenSSL's names, the TLS 1.2 and earlier suites
// Go implements.
var openSSLSuites = map[string]string{
	"RC4-SHA": "TLS_RSA_WITH_RC4_128_SHA", "DES-CBC3-SHA": "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
	"AES128-SHA": "TLS_RSA_WITH_AES_128_CBC_SHA", "AES256-SHA": "TLS_RSA_WITH_AES_256_CBC_SHA",
	"AES128-SHA256": "TLS_RSA_WITH_AES_128_CBC_SHA256", "AES128-GCM-SHA256": "TLS_RSA_WITH_AES_128_GCM_SHA256",
	"AES256-GCM-SHA384": "TLS_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-RC4-SHA": "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA",
	"ECDHE-ECDSA-AES128-SHA": "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA-AES256-SHA": "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
	"ECDHE-RSA-RC4-SHA": "TLS_ECDHE_RSA_WITH_RC4_128_SHA", "ECDHE-RSA-DES-CBC3-SHA": "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
	"ECDHE-RSA-AES128-SHA": "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA-AES256-SHA": "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
	"ECDHE-ECDSA-AES128-SHA256": "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", "ECDHE-RSA-AES128-SHA256": "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
	"ECDHE-RSA-AES128-GCM-SHA256": "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256": "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
	"ECDHE-RSA-AES256-GCM-SHA384": "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384": "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
	"ECDHE-RSA-CHACHA20-POLY1305": "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305": "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
}

// tls13Suites are TLS 1.3's suites, which an OpenSSL cipher list does not
// choose (Python's set_ciphers leaves them on): named, they change nothing.
var tls13Suites = map[string]bool{"TLS_AES_128_GCM_SHA256": true, "TLS_AES_256_GCM_SHA384": true, "TLS_CHACHA20_POLY1305_SHA256": true}

// CipherSuites turns ciphers (OpenSSL cipher names, joined with ":" as
// Ansible joins them) into the TLS 1.2 suites Go offers; nil for none
// given. Like OpenSSL's list, it leaves TLS 1.3 alone. A name Go has no
// suite for, and OpenSSL's aliases and operators (HIGH, ECDH+AESGCM,
// !aNULL, @SECLEVEL=2), are refused: tender cannot offer what they
// select.
func CipherSuites(ciphers []string) ([]uint16, error) {
	if len(ciphers) == 0 {
		return nil, nil
	}
	ids := map[string]uint16{}
	for _, s := range append(tls.CipherSuites(), tls.InsecureCipherSuites()...) {
		ids[s.Name] = s.ID
	}
	var out []uint16
	for _, name := range strings.FieldsFunc(strings.Join(ciphers, ":"), func(r rune) bool { return r == ':' || r == ',' || r == ' ' }) {
		if tls13Suites[name] {
			continue
		}
		id, ok := ids[openSSLSuites[name]]
		if !ok {
			return nil, fmt.Errorf("ciphers: tender cannot honour %q: it takes the OpenSSL names of the TLS suites Go implements (such as ECDHE-RSA-AES128-GCM-SHA256), not OpenSSL's aliases or operators nor suites Go lacks (DHE, CCM, ARIA, CAMELLIA, ...)", name)
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return nil, &PlainError{"An unknown error occurred: ('No cipher can be selected.',)"}
	}
	return out, nil
}
