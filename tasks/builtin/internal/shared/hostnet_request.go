package shared

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// NewRequest builds a request with the task's headers, user agent and
// credentials. The password goes only into the Authorization header,
// never into a message.
func NewRequest(ctx context.Context, a tasks.Values, method, rawURL string, body *strings.Reader) (*http.Request, error) {
	return NewRequestWith(ctx, a, method, rawURL, body, RequestOpts{})
}

// RequestOpts are what a request carries besides the task's values: Base,
// the headers Ansible's open_url sets before the task's own (cache-control
// for force, If-Modified-Since), which a redirect keeps; Net, the host's
// netrc (use_netrc); NoDecompress, decompress: false.
type RequestOpts struct {
	Base         http.Header
	Net          *HostNet
	NoDecompress bool
}

// reqInfo rides in a request's context to the transport and the redirect
// policy: what Ansible's urllib handlers would know of it.
type reqInfo struct {
	base http.Header
	// strip are the task's headers unredirected_headers names: a
	// redirect drops them (and puts back base's value of one).
	strip []string
	// user, pass answer a 401 from host (Ansible's password manager
	// for the URL's netloc) when credentials are not forced up front.
	user, pass, host string
	challenge        bool
	decompress       bool
	// referer is set when the task gave a Referer header itself.
	referer bool
}

type reqInfoKey struct{}

// NewRequestWith is NewRequest with opts, as Ansible's open_url builds a
// request: the user agent, then opts.Base, then the task's headers, which
// override both. Credentials (url_username and url_password, or the
// URL's own) go up front only with force_basic_auth; otherwise they answer
// a 401 whose challenge asks for Basic or Digest authentication, from the
// same host. Without a user name, the host's netrc entry for the URL's
// host (use_netrc) is sent up front as Basic credentials.
func NewRequestWith(ctx context.Context, a tasks.Values, method, rawURL string, body *strings.Reader, o RequestOpts) (*http.Request, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("unsupported URL %q: only http and https URLs are fetched from the host", RedactURL(rawURL))
	}
	if a.Bool("use_gssapi") {
		return nil, errors.New("use_gssapi: tender has no GSSAPI (Kerberos) authentication; leave use_gssapi false")
	}
	info := &reqInfo{base: http.Header{}, decompress: !o.NoDecompress}
	if agent := a.Str("http_agent"); agent != "" {
		info.base.Set("User-Agent", agent)
	}
	for k, v := range o.Base {
		info.base[k] = v
	}
	ctx = context.WithValue(ctx, reqInfoKey{}, info)
	var req *http.Request
	if body != nil {
		req, err = http.NewRequestWithContext(ctx, method, rawURL, body)
	} else {
		req, err = http.NewRequestWithContext(ctx, method, rawURL, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("%s", RedactURL(err.Error()))
	}
	for k, v := range info.base {
		req.Header[k] = append([]string(nil), v...)
	}
	unredirected := map[string]bool{}
	for _, h := range a.Strings("unredirected_headers") {
		unredirected[strings.ToLower(h)] = true
	}
	set := func(k, v string) {
		req.Header.Set(k, v)
		if unredirected[strings.ToLower(k)] {
			info.strip = append(info.strip, k)
		}
	}
	user, pass := a.Str("url_username"), a.Str("url_password")
	if u.User != nil && user == "" {
		user = u.User.Username()
		pass, _ = u.User.Password()
	}
	req.URL.User = nil
	switch {
	case user != "" && a.Bool("force_basic_auth"):
		set("Authorization", basicAuth(user, pass))
	case user != "":
		info.user, info.pass, info.host, info.challenge = user, pass, req.URL.Host, true
	case a.Bool("use_netrc") && o.Net != nil:
		login, password, err := o.Net.netrcLogin(strings.ToLower(req.URL.Hostname()))
		if err != nil {
			return nil, err
		}
		if login != "" && password != "" {
			set("Authorization", basicAuth(login, password))
		}
	}
	for k, v := range a.Dict("headers") {
		set(k, tasks.ToText(v))
		info.referer = info.referer || strings.EqualFold(k, "referer")
	}
	return req, nil
}

func basicAuth(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// redirectPolicy wraps a redirect policy (nil: Go's, at most 10) so that
// a redirected request carries what Python's would: not the headers
// unredirected_headers names (an Ansible header they replaced comes
// back), and no Referer the task did not set.
func redirectPolicy(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if info, ok := req.Context().Value(reqInfoKey{}).(*reqInfo); ok {
			for _, k := range info.strip {
				req.Header.Del(k)
				if v, ok := info.base[http.CanonicalHeaderKey(k)]; ok {
					req.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), v...)
				}
			}
			if !info.referer {
				req.Header.Del("Referer")
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// WithRedirects sets c's redirect policy, keeping what redirectPolicy
// does to every redirected request.
func WithRedirects(c *http.Client, policy func(*http.Request, []*http.Request) error) {
	c.CheckRedirect = redirectPolicy(policy)
}

// hostTransport is the transport with what Python's urllib handlers add:
// the answer to an authentication challenge and gzip decompression.
type hostTransport struct{ tr *http.Transport }

func (h *hostTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := h.tr.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	info, _ := req.Context().Value(reqInfoKey{}).(*reqInfo)
	if info == nil {
		info = &reqInfo{decompress: true}
	}
	if resp.StatusCode == http.StatusUnauthorized && info.challenge && req.URL.Host == info.host {
		auth, err := answerChallenge(resp.Header.Values("Www-Authenticate"), req, info.user, info.pass)
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		if auth != "" && auth != req.Header.Get("Authorization") {
			retry := req.Clone(req.Context())
			if req.Body != nil && req.Body != http.NoBody {
				if req.GetBody == nil {
					return resp, nil
				}
				if retry.Body, err = req.GetBody(); err != nil {
					resp.Body.Close()
					return nil, err
				}
			}
			resp.Body.Close()
			retry.Header.Set("Authorization", auth)
			if resp, err = h.tr.RoundTrip(retry); err != nil {
				return nil, err
			}
		}
	}
	// Python's urllib raises for anything but 2xx: its body is read as
	// it came, only a success is decompressed.
	if info.decompress && resp.StatusCode >= 200 && resp.StatusCode < 300 && strings.ToLower(resp.Header.Get("Content-Encoding")) == "gzip" {
		resp.Body = &gzipBody{rc: resp.Body}
		resp.ContentLength = -1
	}
	return resp, nil
}

// gzipBody decompresses a gzip body, opened at the first read: an empty
// body reads as empty, as Python's GzipDecodedReader does.
type gzipBody struct {
	rc io.ReadCloser
	z  *gzip.Reader
}

func (g *gzipBody) Read(p []byte) (int, error) {
	if g.z == nil {
		br := bufio.NewReader(g.rc)
		if _, err := br.Peek(1); err != nil {
			return 0, err
		}
		z, err := gzip.NewReader(br)
		if err != nil {
			return 0, err
		}
		g.z = z
	}
	return g.z.Read(p)
}

func (g *gzipBody) Close() error { return g.rc.Close() }
