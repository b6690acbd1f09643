package shared

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
)

// HostHTTP is an HTTP client whose every connection is opened from the
// host's side through env.Conn.Dial (an SSH direct-tcpip channel), so the
// request sees the host's network, names and firewall while the host
// needs no curl or wget. Proxies from the controller's environment are not
// used. Redirects are followed as Ansible's "safe" policy does (up to 10)
// unless follow is false. A gzip response is decompressed, as Ansible's
// fetch_url does by default.
func HostHTTP(env *tasks.Env, timeout time.Duration, validateCerts, follow bool) *http.Client {
	return HostHTTPWith(env, timeout, validateCerts, follow, HTTPExtras{})
}

// HTTPExtras are a request's less common needs: CA, a PEM bundle (the
// host's ca_path file) that is then the only authority trusted; Socket, a
// Unix socket on the host that every connection goes to instead of the
// URL's host and port (unix_socket); Cert, the client certificate
// (client_cert, client_key); Ciphers, the TLS 1.2 suites allowed (ciphers,
// nil for Go's); Net, the host's proxy variables, used when UseProxy.
type HTTPExtras struct {
	CA       *x509.CertPool
	Socket   string
	Cert     *tls.Certificate
	Ciphers  []uint16
	Net      *HostNet
	UseProxy bool
}

// HostHTTPWith is HostHTTP with extras. Like Python's urllib, the client
// sends no Accept-Encoding of its own and leaves the response's headers
// as they came; a 2xx response with Content-Encoding gzip is decompressed
// unless the request said otherwise (RequestOpts.NoDecompress).
// Credentials not forced up front are sent after a 401 that asks for
// them (see NewRequestWith), and a redirect drops the headers
// unredirected_headers names.
func HostHTTPWith(env *tasks.Env, timeout time.Duration, validateCerts, follow bool, x HTTPExtras) *http.Client {
	tc := &tls.Config{InsecureSkipVerify: !validateCerts, RootCAs: x.CA, CipherSuites: x.Ciphers} //nolint:gosec // validate_certs: false asks for it
	if x.Cert != nil {
		tc.Certificates = []tls.Certificate{*x.Cert}
	}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if x.Socket != "" {
				return env.Conn.Dial(ctx, "unix", x.Socket)
			}
			return env.Conn.Dial(ctx, network, addr)
		},
		TLSClientConfig:       tc,
		ResponseHeaderTimeout: timeout,
		DisableKeepAlives:     true,
		DisableCompression:    true,
	}
	if x.UseProxy && x.Net != nil {
		tr.Proxy = x.Net.proxyFor
	}
	c := &http.Client{Transport: &hostTransport{tr}, Timeout: timeout, CheckRedirect: redirectPolicy(nil)}
	if !follow {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c
}

// HttpParams are the request parameters get_url and uri share, as
// Ansible's url_argument_spec.
var HttpParams = []tasks.Param{
	{Name: "url", Required: true},
	{Name: "force", Kind: tasks.Bool, Default: false},
	{Name: "http_agent", Default: "ansible-httpget"},
	{Name: "use_proxy", Kind: tasks.Bool, Default: true},
	{Name: "validate_certs", Kind: tasks.Bool, Default: true},
	{Name: "url_username", Aliases: []string{"username"}},
	{Name: "url_password", Aliases: []string{"password"}},
	{Name: "force_basic_auth", Kind: tasks.Bool, Default: false},
	{Name: "headers", Kind: tasks.Dict},
	{Name: "timeout", Kind: tasks.Int},
	{Name: "client_cert", Kind: tasks.Path},
	{Name: "client_key", Kind: tasks.Path},
	{Name: "use_gssapi", Kind: tasks.Bool, Default: false},
}

// RedactURL hides a password written into a URL (user:pass@host).
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			return strings.Replace(s, u.User.String()+"@", u.User.Username()+":********@", 1)
		}
	}
	return s
}

// ResponseHeaders are a response's headers as Ansible returns them:
// lower-case names with dashes turned to underscores.
func ResponseHeaders(resp *http.Response) map[string]any {
	out := map[string]any{}
	for k, v := range resp.Header {
		out[strings.ReplaceAll(strings.ToLower(k), "-", "_")] = strings.Join(v, ", ")
	}
	return out
}

// HttpErrorMsg is Python's text for a response that is not 2xx: "HTTP
// Error 404: Not Found", with the server's own reason phrase.
func HttpErrorMsg(resp *http.Response) string {
	reason := strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" ")
	if reason == "" || reason == resp.Status {
		reason = http.StatusText(resp.StatusCode)
	}
	return fmt.Sprintf("HTTP Error %d: %s", resp.StatusCode, reason)
}

// RequestError is Ansible's message for a request that got no response.
func RequestError(err error) string {
	var pe *PlainError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	var ue *url.Error
	if e, ok := err.(*url.Error); ok {
		ue = e
		if ue.Timeout() {
			return "Request failed: <urlopen error timed out>"
		}
		return fmt.Sprintf("Request failed: <urlopen error %s>", RedactURL(ue.Err.Error()))
	}
	return "Request failed: " + RedactURL(err.Error())
}

// SafeRedirects follows redirects as Ansible's policies do: "safe" only
// for GET and HEAD, all of them otherwise; at most 10.
func SafeRedirects(policy string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return fmt.Errorf("stopped after 10 redirects")
		}
		if policy == "safe" && via[0].Method != http.MethodGet && via[0].Method != http.MethodHead {
			return http.ErrUseLastResponse
		}
		return nil
	}
}
