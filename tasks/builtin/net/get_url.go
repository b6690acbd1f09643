package net

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
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

// Run fetches the URL unless dest already holds it.
func (getURLModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := getURLArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	mode, err := shared.ModeArg(a["mode"])
	if err != nil {
		return tasks.Result{}, err
	}
	rawURL, dest := a.Str("url"), a.Str("dest")
	timeout := 10 * time.Second
	if a.Has("timeout") {
		timeout = time.Duration(a.Int("timeout")) * time.Second
	}
	client := shared.HostHTTP(env, timeout, a.Bool("validate_certs"), true)
	data := map[string]any{"changed": false, "checksum_dest": nil, "checksum_src": nil, "dest": dest, "elapsed": 0, "url": rawURL}
	failWith := func(msg string) (tasks.Result, error) {
		return tasks.Result{Failed: true, Msg: msg, Data: data}, nil
	}
	algo, sum := "", ""
	if c := a.Str("checksum"); c != "" {
		var ok bool
		if algo, sum, ok = strings.Cut(c, ":"); !ok {
			return failWith("The checksum parameter has to be in format <algorithm>:<checksum>")
		}
		if _, known := hashes[algo]; !known {
			return failWith(fmt.Sprintf("Could not hash file with algorithm %s. Available algorithms: %s", algo, "md5, sha1, sha224, sha256, sha384, sha512"))
		}
		if strings.Contains(sum, "://") {
			if sum, err = checksumFromURL(ctx, client, a, sum, urlFilename(rawURL)); err != nil {
				return failWith(err.Error())
			}
		}
		sum = strings.ToLower(nonWord.ReplaceAllString(sum, ""))
		if !isHex(sum) {
			return failWith("The checksum format is invalid")
		}
	}
	attrs := [][2]string{{"mode", mode}, {"owner", a.Str("owner")}, {"group", a.Str("group")}}
	force := a.Bool("force")
	out, err := shared.Run(ctx, env, shared.ShAssign(append([][2]string{{"dest", dest}, {"algo", algo}, {"sum", sum},
		{"force", shared.BoolFlag(force)}, {"_t_check", shared.BoolFlag(env.Check)}}, attrs...))+getURLProbe, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	probe := shared.ParseVerdict(out.Stdout)
	if probe["failed"] == "1" {
		return failWith(probe["msg"])
	}
	switch probe["verdict"] {
	case "exists":
		shared.InfoData(data, probe, "")
		data["changed"] = probe["changed"] == "1"
		msg := "file already exists"
		if data["changed"] == true {
			msg = "file already exists but file attributes changed"
		}
		data["msg"] = msg
		return tasks.Result{Changed: data["changed"] == true, Msg: msg, Data: data}, nil
	case "fetch":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}, nil
	}
	method := http.MethodGet
	if env.Check {
		method = http.MethodHead
	}
	req, err := shared.NewRequest(ctx, a, method, rawURL, nil)
	if err != nil {
		return failWith(err.Error())
	}
	if probe["exists"] == "1" && !force && (sum == "" || probe["digest"] == sum) {
		mt, _ := strconv.ParseInt(probe["mtime"], 10, 64)
		req.Header.Set("If-Modified-Since", time.Unix(mt, 0).UTC().Format(http.TimeFormat))
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		d := map[string]any{"url": rawURL, "dest": dest, "elapsed": int(time.Since(start).Seconds()), "changed": false}
		return tasks.Result{Failed: true, Msg: shared.RequestError(err), Data: d}, nil
	}
	defer resp.Body.Close()
	data["elapsed"] = int(time.Since(start).Seconds())
	status := shared.HttpErrorMsg(resp)
	if resp.StatusCode == http.StatusNotModified {
		d := map[string]any{"url": rawURL, "dest": dest, "msg": status, "status_code": 304, "elapsed": data["elapsed"], "changed": false}
		shared.InfoData(d, probe, "")
		return tasks.Result{Msg: status, Data: d}, nil
	}
	if resp.StatusCode != http.StatusOK {
		d := map[string]any{"url": rawURL, "dest": dest, "elapsed": data["elapsed"], "status_code": resp.StatusCode, "response": status}
		return tasks.Result{Failed: true, Msg: "Request failed", Data: d}, nil
	}
	if probe["isdir"] == "1" {
		name := ""
		if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
			name = path.Base(params["filename"])
		}
		if name == "" || name == "." || name == "/" {
			name = urlFilename(resp.Request.URL.String())
		}
		dest = strings.TrimSuffix(dest, "/") + "/" + name
		data["dest"] = dest
	}
	tmp, err := os.CreateTemp("", "tender-get_url-")
	if err != nil {
		return tasks.Result{}, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	s1 := sha1.New()
	if _, err := io.Copy(io.MultiWriter(tmp, s1), resp.Body); err != nil {
		return failWith("failed to create temporary content file: " + err.Error())
	}
	data["checksum_src"] = hex.EncodeToString(s1.Sum(nil))
	// Ansible's src is the temporary file on the host; tender's is the
	// one beside dest, where it goes when the content differs.
	data["src"] = getURLStaging(dest, data["checksum_src"].(string))
	okMsg := "OK (" + shared.OrDefault(resp.Header.Get("Content-Length"), "unknown") + " bytes)"
	if env.Check {
		if probe["exists"] == "1" && probe["isdir"] != "1" {
			data["checksum_dest"] = probe["sha1"]
		}
		changed := data["checksum_dest"] == nil || data["checksum_dest"] != data["checksum_src"]
		data["changed"], data["msg"] = changed, okMsg
		shared.InfoData(data, probe, "")
		return tasks.Result{Changed: changed, Msg: okMsg, Data: data}, nil
	}
	return placeDownload(ctx, env, a, tmp, dest, algo, sum, attrs, probe, data, okMsg, resp.StatusCode)
}

// placeDownload moves the downloaded file to dest on the host when it
// differs and builds get_url's result.
func placeDownload(ctx context.Context, env *tasks.Env, a tasks.Values, tmp *os.File, dest, algo, sum string,
	attrs [][2]string, probe shared.Verdict, data map[string]any, okMsg string, status int) (tasks.Result, error) {
	want := data["checksum_src"].(string)
	remoteTmp := ""
	if probe["isdir"] == "1" || probe["exists"] != "1" || probe["sha1"] != want {
		remoteTmp = getURLStaging(dest, want)
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return tasks.Result{}, err
		}
		if err := env.Conn.Put(ctx, remoteTmp, tmp, 0o600); err != nil {
			return tasks.Result{Failed: true, Msg: fmt.Sprintf("Destination %s is not writable: %v", path.Dir(dest), err), Data: data}, nil
		}
	}
	out, err := shared.Run(ctx, env, shared.ShAssign(append([][2]string{{"dest", dest}, {"tmp", remoteTmp}, {"want", want},
		{"algo", algo}, {"sum", sum}, {"backup", shared.BoolFlag(a.Bool("backup"))}}, attrs...))+getURLPlace, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	if c, ok := v["checksum_dest"]; ok {
		data["checksum_dest"] = c
	}
	if v["failed"] == "1" {
		return tasks.Result{Failed: true, Msg: v["msg"], Data: data}, nil
	}
	switch v["verdict"] {
	case "badsum":
		return tasks.Result{Failed: true, Msg: fmt.Sprintf("The checksum for %s did not match %s; it was %s.", dest, sum, v["digest"]), Data: data}, nil
	case "done":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode, Data: data}, nil
	}
	if bf := v["backup_file"]; bf != "" {
		data["backup_file"] = bf
	}
	data["changed"] = v["changed"] == "1"
	data["md5sum"], data["msg"], data["status_code"] = v["md5sum"], okMsg, status
	shared.InfoData(data, v, "")
	return tasks.Result{Changed: data["changed"] == true, Msg: okMsg, Data: data}, nil
}

// getURLStaging is the temporary file beside dest a download goes to.
func getURLStaging(dest, sha1 string) string {
	return path.Dir(dest) + "/.tender-get_url-" + sha1[:12]
}

// checksumFromURL fetches a checksum file and finds the line for
// filename, as Ansible does (a file of one bare checksum, or
// "<sum>  <name>" lines).
func checksumFromURL(ctx context.Context, client *http.Client, a tasks.Values, sumURL, filename string) (string, error) {
	req, err := shared.NewRequest(ctx, a, http.MethodGet, sumURL, nil)
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
