package net

import (
	"bytes"
	"context"
	"crypto/x509"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// uriModule makes an HTTP request from the host's network, as Ansible's
// uri: the connection is opened through Conn.Dial, so the host needs no
// curl. creates, removes and a directory dest cost one round trip
// before the request; dest is written with Put and its attributes set in
// one more. Like Ansible's, uri has no check mode: it is skipped.
type uriModule struct{}

var _ tasks.Module = uriModule{}

var uriArgs = &tasks.Spec{
	Module: "uri",
	Params: append(append([]tasks.Param{
		{Name: "dest", Kind: tasks.Path},
		{Name: "body", Kind: tasks.Raw},
		{Name: "body_format", Default: "raw", Choices: []string{"form-urlencoded", "json", "raw", "form-multipart"}},
		{Name: "method", Default: "GET"},
		{Name: "return_content", Kind: tasks.Bool, Default: false},
		{Name: "follow_redirects", Default: "safe", Choices: []string{"all", "no", "none", "safe", "urllib2", "yes"}},
		{Name: "creates", Kind: tasks.Path},
		{Name: "removes", Kind: tasks.Path},
		{Name: "status_code", Kind: tasks.List, Elements: tasks.Int, Default: []any{200}},
		{Name: "unredirected_headers", Kind: tasks.List},
		{Name: "decompress", Kind: tasks.Bool, Default: true},
		{Name: "ciphers", Kind: tasks.List},
		{Name: "use_netrc", Kind: tasks.Bool, Default: true},
		{Name: "src", Kind: tasks.Path},
		{Name: "remote_src", Kind: tasks.Bool, Default: false},
		{Name: "ca_path", Kind: tasks.Path},
		{Name: "unix_socket", Kind: tasks.Path},
	}, uriHTTPParams()...), shared.AttrParams...),
}

// uriHTTPParams are httpParams with uri's own alias for the user name.
func uriHTTPParams() []tasks.Param {
	ps := append([]tasks.Param(nil), shared.HttpParams...)
	for i := range ps {
		if ps[i].Name == "url_username" {
			ps[i].Aliases = []string{"user"}
		}
	}
	return ps
}

var (
	upperWord  = regexp.MustCompile(`^[A-Z]+$`)
	jsonSuffix = map[string]bool{"json": true, "javascript": true}
)

// uriProbe answers creates, removes and whether dest is a directory.
//
//go:embed uri_probe.sh
var uriProbe string

// uriPlace sets the attributes of the dest uri wrote.
var uriPlace = shared.AttrFuncs + shared.ShFuncs + uriPlaceBody

//go:embed uri_place.sh
var uriPlaceBody string

// uriJob is one uri task: its decoded arguments and what the probe found
// of dest on the host.
type uriJob struct {
	a              tasks.Values
	rawURL, method string
	mode, dest     string
	// body is the request body rendered as body_format says, nil for none.
	body *string
	// destIsDir is set when dest is a directory on the host: the file
	// written there takes the response's name.
	destIsDir bool
	// destMtime is the mtime of dest when it is a file, "" otherwise: the
	// request asks If-Modified-Since it.
	destMtime string
	// net is what the host's environment says of proxies and netrc.
	net *shared.HostNet
}

// uriResponse is what uri's request brought back: the response, its body
// and the result data built from them.
type uriResponse struct {
	resp    *http.Response
	content []byte
	data    map[string]any
	// success is a 2xx status; okStatus a status listed in status_code,
	// whose values codes holds.
	success, okStatus bool
	codes             []int
}

// Run makes the request.
func (uriModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	j, res, err := decodeURI(env, args)
	if j == nil {
		return res, err
	}
	if stop, err := j.probe(ctx, env); stop != nil || err != nil {
		return shared.EndWith(stop, err)
	}
	client, req, err := j.plan(ctx, env)
	if err != nil {
		return shared.Fail(err.Error()), nil
	}
	r, stop := j.fetch(client, req)
	if stop != nil {
		return *stop, nil
	}
	defer r.resp.Body.Close()
	res = tasks.Result{Data: r.data}
	if j.dest != "" {
		if stop, err := j.place(ctx, env, r); stop != nil || err != nil {
			return shared.EndWith(stop, err)
		}
		res.Changed = r.data["changed"] == true
	}
	return r.result(j.a, res), nil
}

// decodeURI validates uri's arguments and returns the job they describe,
// or (with a nil job) the result or error the task ends with: skipped in
// check mode, failed for a bad method or body.
func decodeURI(env *tasks.Env, args tasks.Args) (*uriJob, tasks.Result, error) {
	a, err := uriArgs.Decode(args)
	if err != nil {
		return nil, tasks.Result{}, err
	}
	if env.Check {
		return nil, tasks.Result{Skipped: true, Msg: "remote module (uri) does not support check mode", Data: map[string]any{}}, nil
	}
	mode, err := shared.ModeArg(a["mode"])
	if err != nil {
		return nil, tasks.Result{}, err
	}
	j := &uriJob{a: a, rawURL: a.Str("url"), method: strings.ToUpper(a.Str("method")), mode: mode}
	if !upperWord.MatchString(j.method) {
		return nil, shared.Fail("Parameter 'method' needs to be a single word in uppercase, like GET or POST."), nil
	}
	headers := a.Dict("headers")
	if headers == nil {
		headers = map[string]any{}
		a["headers"] = headers
	}
	if j.body, err = uriBody(a, headers); err != nil {
		return nil, shared.Fail(err.Error()), nil
	}
	j.dest = a.Str("dest")
	return j, tasks.Result{}, nil
}

// probe runs the round trip before the request when creates, removes or
// dest ask for one, or the request needs the host's proxy variables or
// netrc (use_proxy, use_netrc), noting whether dest is a directory or a
// file and what the host's environment says; it returns the result that
// ends the task when creates or removes skip it or the script failed.
func (j *uriJob) probe(ctx context.Context, env *tasks.Env) (*tasks.Result, error) {
	a := j.a
	netScript := shared.HostNetScript(a, j.rawURL)
	if !a.Has("creates") && !a.Has("removes") && j.dest == "" && netScript == "" {
		return nil, nil
	}
	out, err := shared.Run(ctx, env, shared.ShAssign([][2]string{{"creates", a.Str("creates")}, {"removes", a.Str("removes")}, {"dest", j.dest}})+netScript+uriProbe, nil)
	if err != nil {
		return nil, err
	}
	v := shared.ParseVerdict(out.Stdout)
	var r tasks.Result
	switch v["verdict"] {
	case "creates":
		r = tasks.Result{Data: map[string]any{"stdout": fmt.Sprintf("skipped, since '%s' exists", a.Str("creates"))}}
	case "removes":
		r = tasks.Result{Data: map[string]any{"stdout": fmt.Sprintf("skipped, since '%s' does not exist", a.Str("removes"))}}
	case "go":
		j.destIsDir, j.destMtime = v["isdir"] == "1", v["mtime"]
		if netScript != "" {
			j.net = shared.ParseHostNet(v)
		}
		return nil, nil
	default:
		r = tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}
	}
	return &r, nil
}

// plan builds the client that makes the request from the host (its
// timeout, redirect policy, TLS options and proxy) and the request itself.
// force changes nothing, as in Ansible's uri, which never passes it on to
// fetch_url; a dest file makes the request conditional on its mtime, as
// Ansible's does.
func (j *uriJob) plan(ctx context.Context, env *tasks.Env) (*http.Client, *http.Request, error) {
	a := j.a
	timeout := 30 * time.Second
	if a.Has("timeout") {
		timeout = time.Duration(a.Int("timeout")) * time.Second
	}
	follow := a.Str("follow_redirects")
	x := shared.HTTPExtras{Socket: a.Str("unix_socket"), Net: j.net, UseProxy: a.Bool("use_proxy")}
	if err := shared.URLOptions(ctx, env, a, &x); err != nil {
		return nil, nil, err
	}
	if ca := a.Str("ca_path"); ca != "" {
		pem, err := hostFile(ctx, env, ca)
		if err != nil {
			return nil, nil, err
		}
		if x.CA = x509.NewCertPool(); !x.CA.AppendCertsFromPEM(pem) {
			return nil, nil, fmt.Errorf("failed to load CA certificates from %s: no PEM certificate in it", ca)
		}
	}
	client := shared.HostHTTPWith(env, timeout, a.Bool("validate_certs"), follow != "no" && follow != "none", x)
	if follow == "safe" || follow == "urllib2" || follow == "yes" {
		shared.WithRedirects(client, shared.SafeRedirects(follow))
	}
	if err := j.readSrc(ctx, env); err != nil {
		return nil, nil, err
	}
	var rd *strings.Reader
	if j.body != nil {
		rd = strings.NewReader(*j.body)
	}
	o := shared.RequestOpts{Net: j.net, NoDecompress: !a.Bool("decompress")}
	if mt, err := strconv.ParseInt(j.destMtime, 10, 64); err == nil {
		o.Base = http.Header{"If-Modified-Since": {time.Unix(mt, 0).UTC().Format(http.TimeFormat)}}
	}
	req, err := shared.NewRequestWith(ctx, a, j.method, j.rawURL, rd, o)
	return client, req, err
}

// readSrc makes src's content the body, as Ansible's uri sends a file in
// place of body: a controller file (looked for as copy's src is) or, with
// remote_src, a file of the host.
func (j *uriJob) readSrc(ctx context.Context, env *tasks.Env) error {
	src := j.a.Str("src")
	if src == "" {
		return nil
	}
	var b []byte
	var err error
	if j.a.Bool("remote_src") {
		if b, err = hostFile(ctx, env, src); err != nil {
			return fmt.Errorf("Unable to open source file %s", src)
		}
	} else {
		local, ferr := env.FindFile("files", src)
		if ferr != nil {
			return ferr
		}
		if b, err = env.Sandbox.ReadFile(local); err != nil {
			return err
		}
	}
	s := string(b)
	j.body = &s
	return nil
}

// hostFile reads a file of the host, up to 64 MiB.
func hostFile(ctx context.Context, env *tasks.Env, p string) ([]byte, error) {
	var buf limitedBuffer
	if err := env.Conn.Get(ctx, p, &buf); err != nil {
		return nil, err
	}
	return buf.b, buf.err
}

// limitedBuffer keeps up to 64 MiB and fails past it.
type limitedBuffer struct {
	b   []byte
	err error
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if len(l.b)+len(p) > 64<<20 {
		l.err = errors.New("the file is larger than 64 MiB")
		return 0, l.err
	}
	l.b = append(l.b, p...)
	return len(p), nil
}

// fetch sends the request and reads the response and its body; when no
// response came back it returns the failed result instead. The caller
// closes the returned response's body.
func (j *uriJob) fetch(client *http.Client, req *http.Request) (*uriResponse, *tasks.Result) {
	start := time.Now()
	resp, err := client.Do(req)
	elapsed := int(time.Since(start).Seconds())
	if err != nil {
		return nil, &tasks.Result{Failed: true, Msg: shared.RequestError(err), Data: map[string]any{"status": -1, "url": j.rawURL, "elapsed": elapsed, "redirected": false}}
	}
	content, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		resp.Body.Close()
		return nil, &tasks.Result{Failed: true, Msg: shared.RequestError(err), Data: map[string]any{"status": -1, "url": j.rawURL, "elapsed": elapsed}}
	}
	r := &uriResponse{resp: resp, content: content, data: shared.ResponseHeaders(resp)}
	r.describe(j.rawURL, elapsed, j.a.List("status_code"))
	return r, nil
}

// describe fills the result data from the response's URL, status and
// cookies, and checks the status against status_code.
func (r *uriResponse) describe(rawURL string, elapsed int, statusCodes []any) {
	resp, data := r.resp, r.data
	final := resp.Request.URL.String()
	data["url"], data["status"], data["elapsed"], data["redirected"], data["changed"] = final, resp.StatusCode, elapsed, final != rawURL, false
	r.success = resp.StatusCode >= 200 && resp.StatusCode < 300
	if r.success {
		data["msg"] = "OK (" + shared.OrDefault(resp.Header.Get("Content-Length"), "unknown") + " bytes)"
		cookies, cookieStr := map[string]any{}, []string{}
		for _, c := range resp.Cookies() {
			cookies[c.Name] = c.Value
			cookieStr = append(cookieStr, c.Name+"="+c.Value)
		}
		data["cookies"], data["cookies_string"] = cookies, strings.Join(cookieStr, "; ")
	} else {
		// Python raises for anything but 2xx: the error's text is the
		// message and its body a "body" key, unless read as content.
		data["msg"] = shared.HttpErrorMsg(resp)
	}
	if loc, ok := data["location"].(string); ok {
		if u, err := resp.Request.URL.Parse(loc); err == nil {
			data["location"] = u.String()
		}
	}
	r.codes = []int{}
	for _, c := range statusCodes {
		n, _ := c.(int)
		r.codes = append(r.codes, n)
		r.okStatus = r.okStatus || n == resp.StatusCode
	}
}

// writesDest tells whether the body goes to dest: only for a status in
// status_code other than 304 Not Modified.
func (r *uriResponse) writesDest() bool {
	return r.okStatus && r.resp.StatusCode != http.StatusNotModified
}

// destFile is the host file the body goes to: dest itself, or in a
// directory dest the file the response's Content-Disposition names
// (index.html for none).
func (j *uriJob) destFile(resp *http.Response) string {
	if !j.destIsDir {
		return j.dest
	}
	name := ""
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		name = path.Base(params["filename"])
	}
	if name == "" || name == "." || name == "/" {
		name = "index.html"
	}
	return strings.TrimSuffix(j.dest, "/") + "/" + name
}

// place writes the response body to dest on the host with Put and sets
// its attributes in one round trip, adding path, changed and the file's
// facts to the result data; it returns a result when that failed.
func (j *uriJob) place(ctx context.Context, env *tasks.Env, r *uriResponse) (*tasks.Result, error) {
	dest, data := j.destFile(r.resp), r.data
	if r.writesDest() {
		if err := env.Conn.Put(ctx, dest, bytes.NewReader(r.content), 0o644); err != nil {
			f := shared.Fail(fmt.Sprintf("failed to write %s: %v", dest, err))
			return &f, nil
		}
		out, err := shared.Run(ctx, env, shared.ShAssign([][2]string{{"dest", dest}, {"mode", j.mode}, {"owner", j.a.Str("owner")}, {"group", j.a.Str("group")}})+shared.AttrAssign(j.a)+uriPlace, nil)
		if err != nil {
			return nil, err
		}
		v := shared.ParseVerdict(out.Stdout)
		if v["failed"] == "1" {
			f := shared.Fail(v["msg"])
			return &f, nil
		}
		data["changed"] = true
		info := map[string]any{}
		shared.InfoData(info, v, "")
		for k, x := range info {
			if _, clash := data[k]; !clash || k == "mode" || k == "size" {
				data[k] = x
			}
		}
	}
	data["path"] = dest
	return nil, nil
}

// bodyText is the response body as text (read as latin-1 for a charset
// other than utf-8 or us-ascii) and whether its Content-Type says JSON.
func (r *uriResponse) bodyText() (text string, maybeJSON bool) {
	ctype, params, _ := mime.ParseMediaType(r.resp.Header.Get("Content-Type"))
	sub := ctype[strings.Index(ctype, "/")+1:]
	if i := strings.LastIndex(sub, "+"); i >= 0 {
		sub = sub[i+1:]
	}
	maybeJSON = ctype != "" && jsonSuffix[strings.ToLower(sub)]
	text = string(r.content)
	if cs := strings.ToLower(params["charset"]); cs != "" && cs != "utf-8" && cs != "us-ascii" {
		text = latin1(r.content)
	}
	return text, maybeJSON
}

// result completes res with the body (as json, content or body, as
// Ansible's uri returns it) and fails it when the status is not one of
// status_code.
func (r *uriResponse) result(a tasks.Values, res tasks.Result) tasks.Result {
	data := r.data
	text, maybeJSON := r.bodyText()
	if maybeJSON {
		d := json.NewDecoder(bytes.NewReader([]byte(text)))
		d.UseNumber()
		if js, err := pydict.DecodeJSON(d); err == nil {
			if js, err = expr.FromJSON(js); err == nil {
				data["json"] = js
			}
		}
	}
	if a.Bool("return_content") {
		data["content"] = text
	}
	if !r.success && !maybeJSON && !a.Bool("return_content") && r.okStatus {
		data["body"] = text
	}
	if !r.okStatus {
		res.Failed = true
		data["msg"] = fmt.Sprintf("Status code was %d and not %s: %s", r.resp.StatusCode, intList(r.codes), data["msg"])
	}
	res.Msg = data["msg"].(string)
	return res
}

// uriBody renders body as body_format says, setting Content-Type as
// Ansible does when the task did not.
func uriBody(a tasks.Values, headers map[string]any) (*string, error) {
	raw, ok := a["body"]
	if !ok {
		return nil, nil
	}
	hasType := false
	for k := range headers {
		hasType = hasType || strings.EqualFold(k, "content-type")
	}
	var s string
	switch a.Str("body_format") {
	case "json":
		if str, ok := raw.(string); ok {
			s = str
		} else {
			s = shared.PyJSON(raw)
		}
		if !hasType {
			headers["Content-Type"] = "application/json"
		}
	case "form-urlencoded":
		if str, ok := raw.(string); ok {
			s = str
		} else {
			m, ok := raw.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("failed to parse body as form_urlencoded: cannot encode %T", raw)
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(tasks.ToText(m[k])))
			}
			s = strings.Join(parts, "&")
		}
		if !hasType {
			headers["Content-Type"] = "application/x-www-form-urlencoded"
		}
	case "form-multipart":
		return nil, fmt.Errorf("body_format=form-multipart is not supported by tender's uri")
	default:
		s = tasks.ToText(raw)
	}
	return &s, nil
}

func latin1(b []byte) string {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// intList formats codes as Python prints a list of ints: [200, 201].
func intList(codes []int) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = fmt.Sprint(c)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func (uriModule) Spec() *tasks.Spec { return uriArgs }
