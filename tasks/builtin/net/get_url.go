package net

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// getURLModule downloads a URL to a file on the host, as Ansible's
// get_url. The request is made from the host's network (hostHTTP dials
// through the connection), the body streams to a temporary file on the
// controller while its digests are computed, and travels to the host only
// when it differs from dest: one round trip to look at dest, the request,
// then a Put beside dest and one round trip to move it into place and set
// its attributes.
type getURLModule struct{}

var _ tasks.Module = getURLModule{}

var getURLArgs = &tasks.Spec{
	Module: "get_url",
	Params: append(append([]tasks.Param{
		{Name: "dest", Kind: tasks.Path, Required: true},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "checksum", Default: ""},
		{Name: "tmp_dest", Kind: tasks.Path},
		{Name: "unredirected_headers", Kind: tasks.List},
		{Name: "decompress", Kind: tasks.Bool, Default: true},
		{Name: "ciphers", Kind: tasks.List},
		{Name: "use_netrc", Kind: tasks.Bool, Default: true},
	}, shared.HttpParams...), shared.AttrParams...),
}

var hashes = map[string]func() hash.Hash{
	"md5": md5.New, "sha1": sha1.New, "sha224": sha256.New224, "sha256": sha256.New,
	"sha384": sha512.New384, "sha512": sha512.New,
}

var nonWord = regexp.MustCompile(`\W+`)

// getURLJob is one get_url task: its decoded arguments, what the probe
// found at dest and the result data built so far.
type getURLJob struct {
	a            tasks.Values
	rawURL, dest string
	// algo and sum are the checksum asked for, "" for none.
	algo, sum    string
	force, check bool
	// attrs are the mode, owner and group both scripts set.
	attrs  [][2]string
	client *http.Client
	probe  shared.Verdict
	data   map[string]any
	// timeout is the client's; net what the host's environment says of
	// proxies and netrc, nil when the task needs none of it or it is not
	// read yet.
	timeout time.Duration
	net     *shared.HostNet
}

// Run fetches the URL unless dest already holds it.
func (getURLModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	j, res, err := decodeGetURL(ctx, env, args)
	if j == nil {
		return res, err
	}
	if stop, err := j.probeDest(ctx, env); stop != nil || err != nil {
		return shared.EndWith(stop, err)
	}
	req, err := j.plan(ctx)
	if err != nil {
		return j.fail(err.Error()), nil
	}
	resp, stop := j.send(req)
	if stop != nil {
		return *stop, nil
	}
	defer resp.Body.Close()
	j.nameDest(resp)
	tmp, err := os.CreateTemp("", "tender-get_url-")
	if err != nil {
		return tasks.Result{}, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if err := j.download(tmp, resp); err != nil {
		return j.fail("failed to create temporary content file: " + err.Error()), nil
	}
	okMsg := "OK (" + shared.OrDefault(resp.Header.Get("Content-Length"), "unknown") + " bytes)"
	if j.check {
		return j.checkResult(okMsg), nil
	}
	return j.place(ctx, env, tmp, okMsg, resp.StatusCode)
}

// decodeGetURL validates get_url's arguments and returns the job they
// describe, or (with a nil job) the result or error the task ends with.
// A checksum given as a URL is fetched here.
func decodeGetURL(ctx context.Context, env *tasks.Env, args tasks.Args) (*getURLJob, tasks.Result, error) {
	a, err := getURLArgs.Decode(args)
	if err != nil {
		return nil, tasks.Result{}, err
	}
	mode, err := shared.ModeArg(a["mode"])
	if err != nil {
		return nil, tasks.Result{}, err
	}
	j := &getURLJob{a: a, rawURL: a.Str("url"), dest: a.Str("dest"), force: a.Bool("force"), check: env.Check,
		attrs: [][2]string{{"mode", mode}, {"owner", a.Str("owner")}, {"group", a.Str("group")}}}
	timeout := 10 * time.Second
	if a.Has("timeout") {
		timeout = time.Duration(a.Int("timeout")) * time.Second
	}
	j.timeout = timeout
	j.data = map[string]any{"changed": false, "checksum_dest": nil, "checksum_src": nil, "dest": j.dest, "elapsed": 0, "url": j.rawURL}
	if c := a.Str("checksum"); strings.Contains(c, "://") {
		// The checksum file is fetched first, with the host's proxies
		// and netrc: they cost a round trip of their own.
		if j.net, err = shared.ReadHostNet(ctx, env, a, j.rawURL); err != nil {
			return nil, tasks.Result{}, err
		}
		if err := j.makeClient(ctx, env); err != nil {
			return nil, j.fail(err.Error()), nil
		}
	}
	if err := j.checksum(ctx, a.Str("checksum")); err != nil {
		return nil, j.fail(err.Error()), nil
	}
	return j, tasks.Result{}, nil
}

// makeClient builds the client that makes the requests from the host:
// its timeout, certificate checks, client certificate, ciphers and the
// host's proxy (use_proxy).
func (j *getURLJob) makeClient(ctx context.Context, env *tasks.Env) error {
	x := shared.HTTPExtras{Net: j.net, UseProxy: j.a.Bool("use_proxy")}
	if err := shared.URLOptions(ctx, env, j.a, &x); err != nil {
		return err
	}
	j.client = shared.HostHTTPWith(env, j.timeout, j.a.Bool("validate_certs"), true, x)
	return nil
}

// noCache is the header Ansible's open_url sends for force.
var noCache = http.Header{"Cache-Control": {"no-cache"}}

// checksum parses the checksum argument ("<algorithm>:<sum>", the sum
// possibly the URL of a checksum file) into algo and sum; its error is
// the message get_url fails with.
func (j *getURLJob) checksum(ctx context.Context, c string) error {
	if c == "" {
		return nil
	}
	algo, sum, ok := strings.Cut(c, ":")
	if !ok {
		return errors.New("The checksum parameter has to be in format <algorithm>:<checksum>")
	}
	if _, known := hashes[algo]; !known {
		return fmt.Errorf("Could not hash file with algorithm %s. Available algorithms: %s", algo, "md5, sha1, sha224, sha256, sha384, sha512")
	}
	if strings.Contains(sum, "://") {
		var err error
		if sum, err = checksumFromURL(ctx, j.client, j.a, j.net, sum, urlFilename(j.rawURL)); err != nil {
			return err
		}
	}
	sum = strings.ToLower(nonWord.ReplaceAllString(sum, ""))
	if !isHex(sum) {
		return errors.New("The checksum format is invalid")
	}
	j.algo, j.sum = algo, sum
	return nil
}

// fail is a failed result with msg and the data built so far.
func (j *getURLJob) fail(msg string) tasks.Result {
	return tasks.Result{Failed: true, Msg: msg, Data: j.data}
}

// probeDest runs the round trip that looks at dest, which also fixes its
// attributes when dest already holds the file, and reads the host's
// proxy variables and netrc when they are not read yet; it returns the
// result that ends the task there.
func (j *getURLJob) probeDest(ctx context.Context, env *tasks.Env) (*tasks.Result, error) {
	netScript := ""
	if j.client == nil {
		netScript = shared.HostNetScript(j.a, j.rawURL)
	}
	out, err := shared.Run(ctx, env, shared.ShAssign(append([][2]string{{"dest", j.dest}, {"algo", j.algo}, {"sum", j.sum},
		{"force", shared.BoolFlag(j.force)}, {"_t_check", shared.BoolFlag(j.check)}}, j.attrs...))+shared.AttrAssign(j.a)+netScript+getURLProbe, nil)
	if err != nil {
		return nil, err
	}
	j.probe = shared.ParseVerdict(out.Stdout)
	var r tasks.Result
	switch {
	case j.probe["failed"] == "1":
		r = j.fail(j.probe["msg"])
	case j.probe["verdict"] == "exists":
		r = j.existsResult()
	case j.probe["verdict"] == "fetch":
		if j.client == nil {
			if netScript != "" {
				j.net = shared.ParseHostNet(j.probe)
			}
			if err := j.makeClient(ctx, env); err != nil {
				r = j.fail(err.Error())
				return &r, nil
			}
		}
		return nil, nil
	default:
		r = tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}
	}
	return &r, nil
}

// existsResult is the result when dest already holds the file: changed
// only when the probe fixed its attributes.
func (j *getURLJob) existsResult() tasks.Result {
	data := j.data
	shared.InfoData(data, j.probe, "")
	data["changed"] = j.probe["changed"] == "1"
	msg := "file already exists"
	if data["changed"] == true {
		msg = "file already exists but file attributes changed"
	}
	data["msg"] = msg
	return tasks.Result{Changed: data["changed"] == true, Msg: msg, Data: data}
}

// plan builds the request: HEAD in check mode, GET otherwise, made
// conditional on dest's mtime when dest may already hold the file. As
// Ansible's, force (or a dest whose checksum does not match, which forces
// the download) asks caches for a fresh copy instead (cache-control:
// no-cache).
func (j *getURLJob) plan(ctx context.Context) (*http.Request, error) {
	method := http.MethodGet
	if j.check {
		method = http.MethodHead
	}
	o := shared.RequestOpts{Net: j.net, NoDecompress: !j.a.Bool("decompress")}
	exists := j.probe["exists"] == "1"
	switch {
	case j.force || (exists && j.sum != "" && j.probe["digest"] != j.sum):
		o.Base = noCache
	case exists:
		mt, _ := strconv.ParseInt(j.probe["mtime"], 10, 64)
		o.Base = http.Header{"If-Modified-Since": {time.Unix(mt, 0).UTC().Format(http.TimeFormat)}}
	}
	return shared.NewRequestWith(ctx, j.a, method, j.rawURL, nil, o)
}

// send makes the request from the host and returns a 200 response, whose
// body the caller closes; no response, 304 Not Modified or another status
// ends the task with the result it returns instead.
func (j *getURLJob) send(req *http.Request) (*http.Response, *tasks.Result) {
	start := time.Now()
	resp, err := j.client.Do(req)
	if err != nil {
		d := map[string]any{"url": j.rawURL, "dest": j.dest, "elapsed": int(time.Since(start).Seconds()), "changed": false}
		return nil, &tasks.Result{Failed: true, Msg: shared.RequestError(err), Data: d}
	}
	j.data["elapsed"] = int(time.Since(start).Seconds())
	status := shared.HttpErrorMsg(resp)
	var r tasks.Result
	switch resp.StatusCode {
	case http.StatusOK:
		return resp, nil
	case http.StatusNotModified:
		d := map[string]any{"url": j.rawURL, "dest": j.dest, "msg": status, "status_code": 304, "elapsed": j.data["elapsed"], "changed": false}
		shared.InfoData(d, j.probe, "")
		r = tasks.Result{Msg: status, Data: d}
	default:
		d := map[string]any{"url": j.rawURL, "dest": j.dest, "elapsed": j.data["elapsed"], "status_code": resp.StatusCode, "response": status}
		r = tasks.Result{Failed: true, Msg: "Request failed", Data: d}
	}
	resp.Body.Close()
	return nil, &r
}

// nameDest points dest, when it is a directory on the host, at the file
// in it that the response's Content-Disposition or final URL names.
func (j *getURLJob) nameDest(resp *http.Response) {
	if j.probe["isdir"] != "1" {
		return
	}
	name := ""
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		name = path.Base(params["filename"])
	}
	if name == "" || name == "." || name == "/" {
		name = urlFilename(resp.Request.URL.String())
	}
	j.dest = strings.TrimSuffix(j.dest, "/") + "/" + name
	j.data["dest"] = j.dest
}

// download streams the response body to tmp on the controller, recording
// its sha1 as checksum_src and the staging file beside dest as src.
func (j *getURLJob) download(tmp *os.File, resp *http.Response) error {
	s1 := sha1.New()
	if _, err := io.Copy(io.MultiWriter(tmp, s1), resp.Body); err != nil {
		return err
	}
	j.data["checksum_src"] = hex.EncodeToString(s1.Sum(nil))
	// Ansible's src is the temporary file on the host; tender's is the
	// one beside dest, where it goes when the content differs.
	j.data["src"] = getURLStaging(j.dest, j.data["checksum_src"].(string))
	return nil
}

// differs tells whether the download, whose sha1 is want, must travel to
// the host: dest is missing, a directory, or holds other content.
func (j *getURLJob) differs(want string) bool {
	return j.probe["isdir"] == "1" || j.probe["exists"] != "1" || j.probe["sha1"] != want
}

// checkResult is check mode's result: changed unless dest is a file with
// the download's sha1.
func (j *getURLJob) checkResult(okMsg string) tasks.Result {
	data := j.data
	if j.probe["exists"] == "1" && j.probe["isdir"] != "1" {
		data["checksum_dest"] = j.probe["sha1"]
	}
	changed := data["checksum_dest"] == nil || data["checksum_dest"] != data["checksum_src"]
	data["changed"], data["msg"] = changed, okMsg
	shared.InfoData(data, j.probe, "")
	return tasks.Result{Changed: changed, Msg: okMsg, Data: data}
}

// place uploads the download beside dest when it differs and runs the
// round trip that moves it into place and sets its attributes, then
// builds get_url's result.
func (j *getURLJob) place(ctx context.Context, env *tasks.Env, tmp *os.File, okMsg string, status int) (tasks.Result, error) {
	want := j.data["checksum_src"].(string)
	remoteTmp := ""
	if j.differs(want) {
		remoteTmp = getURLStaging(j.dest, want)
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return tasks.Result{}, err
		}
		if err := env.Conn.Put(ctx, remoteTmp, tmp, 0o600); err != nil {
			return j.fail(fmt.Sprintf("Destination %s is not writable: %v", path.Dir(j.dest), err)), nil
		}
	}
	out, err := shared.Run(ctx, env, shared.ShAssign(append([][2]string{{"dest", j.dest}, {"tmp", remoteTmp}, {"want", want},
		{"algo", j.algo}, {"sum", j.sum}, {"backup", shared.BoolFlag(j.a.Bool("backup"))}}, j.attrs...))+shared.AttrAssign(j.a)+getURLPlace, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return j.placeResult(out, okMsg, status), nil
}

// placeResult turns the place script's verdict into get_url's result.
func (j *getURLJob) placeResult(out transport.Result, okMsg string, status int) tasks.Result {
	data := j.data
	v := shared.ParseVerdict(out.Stdout)
	if c, ok := v["checksum_dest"]; ok {
		data["checksum_dest"] = c
	}
	if v["failed"] == "1" {
		return j.fail(v["msg"])
	}
	switch v["verdict"] {
	case "badsum":
		return j.fail(fmt.Sprintf("The checksum for %s did not match %s; it was %s.", j.dest, j.sum, v["digest"]))
	case "done":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode, Data: data}
	}
	if bf := v["backup_file"]; bf != "" {
		data["backup_file"] = bf
	}
	data["changed"] = v["changed"] == "1"
	data["md5sum"], data["msg"], data["status_code"] = v["md5sum"], okMsg, status
	shared.InfoData(data, v, "")
	return tasks.Result{Changed: data["changed"] == true, Msg: okMsg, Data: data}
}

// getURLStaging is the temporary file beside dest a download goes to.
func getURLStaging(dest, sha1 string) string {
	return path.Dir(dest) + "/.tender-get_url-" + sha1[:12]
}

// checksumFromURL fetches a checksum file and finds the line for
// filename, as Ansible does (a file of one bare checksum, or
// "<sum>  <name>" lines). Like Ansible's, the request always decompresses
// and sends cache-control: no-cache for force.
func checksumFromURL(ctx context.Context, client *http.Client, a tasks.Values, net *shared.HostNet, sumURL, filename string) (string, error) {
	o := shared.RequestOpts{Net: net}
	if a.Bool("force") {
		o.Base = noCache
	}
	req, err := shared.NewRequestWith(ctx, a, http.MethodGet, sumURL, nil, o)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%s", shared.RequestError(err))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("Request failed: %s", http.StatusText(resp.StatusCode))
	}
	ls := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(ls) == 1 && len(strings.Fields(ls[0])) == 1 {
		return ls[0], nil
	}
	for _, l := range ls {
		sum, name, ok := strings.Cut(l, " ")
		if !ok {
			continue
		}
		if strings.HasPrefix(name, " ") || strings.HasPrefix(name, "*") {
			name = name[1:]
		}
		if strings.TrimLeft(name, "./") == filename {
			return sum, nil
		}
	}
	return "", fmt.Errorf("Unable to find a checksum for file '%s' in '%s'", filename, sumURL)
}

// urlFilename is the file name a URL names ("index.html" for none).
func urlFilename(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	_, p, _ := strings.Cut(u, "/")
	name := path.Base("/" + p)
	if name == "/" || name == "." || name == "" {
		return "index.html"
	}
	return name
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s + strings.Repeat("0", len(s)%2))
	return err == nil && s != ""
}

func (getURLModule) Spec() *tasks.Spec { return getURLArgs }
