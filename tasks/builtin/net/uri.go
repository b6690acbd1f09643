package net

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"sort"
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

// Run makes the request.
func (uriModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := uriArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if env.Check {
		return tasks.Result{Skipped: true, Msg: "remote module (uri) does not support check mode", Data: map[string]any{}}, nil
	}
	mode, err := shared.ModeArg(a["mode"])
	if err != nil {
		return tasks.Result{}, err
	}
	rawURL, method := a.Str("url"), strings.ToUpper(a.Str("method"))
	if !upperWord.MatchString(method) {
		return shared.Fail("Parameter 'method' needs to be a single word in uppercase, like GET or POST."), nil
	}
	headers := a.Dict("headers")
	if headers == nil {
		headers = map[string]any{}
		a["headers"] = headers
	}
	body, err := uriBody(a, headers)
	if err != nil {
		return shared.Fail(err.Error()), nil
	}
	dest := a.Str("dest")
	if a.Has("creates") || a.Has("removes") || dest != "" {
		out, err := shared.Run(ctx, env, shared.ShAssign([][2]string{{"creates", a.Str("creates")}, {"removes", a.Str("removes")}, {"dest", dest}})+uriProbe, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		v := shared.ParseVerdict(out.Stdout)
		switch v["verdict"] {
		case "creates":
			return tasks.Result{Data: map[string]any{"stdout": fmt.Sprintf("skipped, since '%s' exists", a.Str("creates"))}}, nil
		case "removes":
			return tasks.Result{Data: map[string]any{"stdout": fmt.Sprintf("skipped, since '%s' does not exist", a.Str("removes"))}}, nil
		case "go":
		default:
			return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}, nil
		}
		if v["isdir"] == "1" {
			dest = "dir:" + dest
		}
	}
	timeout := 30 * time.Second
	if a.Has("timeout") {
		timeout = time.Duration(a.Int("timeout")) * time.Second
	}
	follow := a.Str("follow_redirects")
	client := shared.HostHTTP(env, timeout, a.Bool("validate_certs"), follow != "no" && follow != "none")
	if follow == "safe" || follow == "urllib2" || follow == "yes" {
		client.CheckRedirect = shared.SafeRedirects(follow)
	}
	var rd *strings.Reader
	if body != nil {
		rd = strings.NewReader(*body)
	}
	req, err := shared.NewRequest(ctx, a, method, rawURL, rd)
	if err != nil {
		return shared.Fail(err.Error()), nil
	}
	start := time.Now()
	resp, err := client.Do(req)
	elapsed := int(time.Since(start).Seconds())
	if err != nil {
		return tasks.Result{Failed: true, Msg: shared.RequestError(err), Data: map[string]any{"status": -1, "url": rawURL, "elapsed": elapsed, "redirected": false}}, nil
	}
	defer resp.Body.Close()
	content, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return tasks.Result{Failed: true, Msg: shared.RequestError(err), Data: map[string]any{"status": -1, "url": rawURL, "elapsed": elapsed}}, nil
	}
	data := shared.ResponseHeaders(resp)
	final := resp.Request.URL.String()
	data["url"], data["status"], data["elapsed"], data["redirected"], data["changed"] = final, resp.StatusCode, elapsed, final != rawURL, false
	success := resp.StatusCode >= 200 && resp.StatusCode < 300
	if success {
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
	okStatus := false
	codes := []int{}
	for _, c := range a.List("status_code") {
		n, _ := c.(int)
		codes = append(codes, n)
		okStatus = okStatus || n == resp.StatusCode
	}
	res := tasks.Result{Data: data}
	if dest != "" {
		if r, err := writeURIDest(ctx, env, dest, resp, content, okStatus, mode, a, data); err != nil || r != nil {
			if r != nil {
				return *r, nil
			}
			return tasks.Result{}, err
		}
		res.Changed = data["changed"] == true
	}
	ctype, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	sub := ctype[strings.Index(ctype, "/")+1:]
	if i := strings.LastIndex(sub, "+"); i >= 0 {
		sub = sub[i+1:]
	}
	maybeJSON := ctype != "" && jsonSuffix[strings.ToLower(sub)]
	text := string(content)
	if cs := strings.ToLower(params["charset"]); cs != "" && cs != "utf-8" && cs != "us-ascii" {
		text = latin1(content)
	}
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
	if !success && !maybeJSON && !a.Bool("return_content") && okStatus {
		data["body"] = text
	}
	if !okStatus {
		res.Failed = true
		data["msg"] = fmt.Sprintf("Status code was %d and not %s: %s", resp.StatusCode, intList(codes), data["msg"])
	}
	res.Msg = data["msg"].(string)
	return res, nil
}

// writeURIDest writes the response body to dest on the host (a
// directory dest takes the response's file name) and sets its
// attributes; it returns a result when that failed.
func writeURIDest(ctx context.Context, env *tasks.Env, dest string, resp *http.Response, content []byte, okStatus bool,
	mode string, a tasks.Values, data map[string]any) (*tasks.Result, error) {
	if d, ok := strings.CutPrefix(dest, "dir:"); ok {
		name := ""
		if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
			name = path.Base(params["filename"])
		}
		if name == "" || name == "." || name == "/" {
			name = "index.html"
		}
		dest = strings.TrimSuffix(d, "/") + "/" + name
	}
	if okStatus && resp.StatusCode != http.StatusNotModified {
		if err := env.Conn.Put(ctx, dest, bytes.NewReader(content), 0o644); err != nil {
			r := shared.Fail(fmt.Sprintf("failed to write %s: %v", dest, err))
			return &r, nil
		}
		out, err := shared.Run(ctx, env, shared.ShAssign([][2]string{{"dest", dest}, {"mode", mode}, {"owner", a.Str("owner")}, {"group", a.Str("group")}})+uriPlace, nil)
		if err != nil {
			return nil, err
		}
		v := shared.ParseVerdict(out.Stdout)
		if v["failed"] == "1" {
			r := shared.Fail(v["msg"])
			return &r, nil
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
