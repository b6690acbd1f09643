package packages

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// aptKeyModule adds or removes a key in apt's keyring with the host's
// apt-key and gpg, as Ansible's apt_key does (both must be on the host,
// as Ansible requires them). One round trip reads the key's id (gpg
// --with-colons on the file or the key's bytes, when no id is given) and
// lists the keyring; when the key must be added or removed, a second
// runs apt-key add, del or adv --recv (a keyserver, reached from the
// host, as Ansible reaches it) and lists the keyring again to check.
// A key given by url is fetched from the host's network (through the
// connection, as get_url does) and, as data is, reaches apt-key on its
// standard input.
type aptKeyModule struct{}

var _ tasks.Module = aptKeyModule{}

var aptKeyArgs = &tasks.Spec{
	Module: "apt_key",
	Params: []tasks.Param{
		{Name: "id"},
		{Name: "url"},
		{Name: "data"},
		{Name: "file", Kind: tasks.Path},
		{Name: "keyring", Kind: tasks.Path},
		{Name: "validate_certs", Kind: tasks.Bool, Default: true},
		{Name: "keyserver"},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
	},
	MutuallyExclusive: [][]string{{"data", "file", "keyserver", "url"}},
}

// Spec returns apt_key's parameters.
func (aptKeyModule) Spec() *tasks.Spec { return aptKeyArgs }

// aptKeyErrNoError is Ansible's message when apt-key said nothing wrong
// but the keyring does not show the change.
const aptKeyErrNoError = "apt-key did not return an error, but %s (check that the id is correct and *not* a subkey)"

// aptKeyJob is one apt_key task on one host.
type aptKeyJob struct {
	env                 *tasks.Env
	a                   tasks.Values
	keyring, file, data string
	hasData             bool
	aptKey              string // apt-key's path on the host
	// keyID is the key's id, given or read from the key; id is what the
	// result's id says (nil when the task gave none and none was read).
	keyID string
	id    any
	// derive is whether the probe reads the key's id from the key.
	derive bool
	// Planned from the probe: the id's short form, the fingerprint as
	// listed, the whole id, whether the keyring lists short ids, and the
	// keys listed before any change.
	short, fp, full string
	shortFormat     bool
	before          []any
}

// Run adds or removes the key.
func (aptKeyModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := aptKeyArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad := decodeAptKey(env, a)
	if bad != nil {
		return j.checkBins(ctx, *bad)
	}
	if res, err := j.fetchURL(ctx); err != nil || res.Failed {
		return res, err
	}
	v, blobs, res, err := j.run(ctx, aptKeyProbeScript, j.probeVars())
	if err != nil || res.Failed {
		return res, err
	}
	r, bad := j.plan(v, blobs)
	if bad != nil {
		return *bad, nil
	}
	if bad, err := j.converge(ctx, r); err != nil {
		return tasks.Result{}, err
	} else if bad != nil {
		return *bad, nil
	}
	return tasks.Result{Changed: r["changed"] == true, Data: r}, nil
}

// decodeAptKey makes the job from apt_key's arguments. A non-nil result
// is the failure Ansible reports, once it has checked the host's tools,
// for a keyserver without an id.
func decodeAptKey(env *tasks.Env, a tasks.Values) (*aptKeyJob, *tasks.Result) {
	j := &aptKeyJob{env: env, a: a, keyring: a.Str("keyring"), file: a.Str("file"), data: a.Str("data"), hasData: a.Has("data"),
		keyID: a.Str("id")}
	if a.Has("id") {
		j.id = j.keyID
	}
	if j.keyID == "" && a.Str("keyserver") != "" {
		r := failData("Missing key_id, required with keyserver.", nil)
		return j, &r
	}
	return j, nil
}

// fetchURL, when the task gives a url but no id, checks the host's tools
// and downloads the key to read its id from; it returns the failure when
// either fails. It then decides whether the probe reads the key's id.
func (j *aptKeyJob) fetchURL(ctx context.Context) (tasks.Result, error) {
	if j.keyID != "" {
		return tasks.Result{}, nil
	}
	if u := j.a.Str("url"); u != "" {
		if r, err := j.checkBins(ctx, tasks.Result{}); err != nil || r.Failed {
			return r, err
		}
		body, msg := j.download(ctx, u)
		if msg != "" {
			return shared.Fail(msg), nil
		}
		j.data, j.hasData = body, true
	}
	j.derive = j.file != "" || j.data != ""
	return tasks.Result{}, nil
}

// probeVars are the probe script's own variables.
func (j *aptKeyJob) probeVars() string {
	return shared.ShAssign([][2]string{{"derive", shared.BoolFlag(j.derive)}})
}

// plan reads the probe's verdict: the key's id (read from the key when
// derived), checked and split into its forms, and the keys listed. It
// returns the result's data so far, or the failure when the id cannot
// be read or is invalid or the keyring cannot be listed.
func (j *aptKeyJob) plan(v shared.Verdict, blobs map[string]string) (map[string]any, *tasks.Result) {
	if j.derive {
		if v["gpg_rc"] != "0" {
			what := j.file
			if j.hasData {
				what = "inline data"
			}
			r := failData(fmt.Sprintf("Unable to extract key from '%s'", what),
				map[string]any{"stdout": blobs["gpg_out"], "stderr": blobs["gpg_err"]})
			return nil, &r
		}
		if keys := aptKeysIn(blobs["gpg_out"], false); len(keys) > 0 {
			j.keyID, j.id = keys[0].(string), keys[0]
		}
	}
	r := map[string]any{"changed": false, "id": j.id}
	short, fp, full, ok := aptParseKeyID(j.keyID, j.id != nil)
	if !ok {
		f := failData("Invalid key_id", r)
		return nil, &f
	}
	r["short_id"], r["fp"], r["key_id"] = short, fp, full
	j.short, j.fp, j.full, j.shortFormat = short, fp, full, len(full) == 8
	before, lres := j.keys(v, blobs, j.shortFormat)
	if lres != nil {
		return nil, lres
	}
	j.before, r["before"] = before, before
	return r, nil
}

// converge adds the key when it should be present and is not listed, or
// removes it when it should be absent and is listed (only noting the
// change in check mode), recording in r what changed and the keys
// listed after. It returns the failure when apt-key fails or the
// keyring does not show the change.
func (j *aptKeyJob) converge(ctx context.Context, r map[string]any) (*tasks.Result, error) {
	want := j.fp
	if j.shortFormat {
		want = j.short
	}
	switch {
	case j.a.Str("state") == "present" && !aptKeyListed(j.before, want):
		r["changed"] = true
		if j.env.Check {
			return nil, nil
		}
		action, bad := j.addAction(ctx, r)
		if bad != nil {
			return bad, nil
		}
		return j.change(ctx, r, action, j.full, func(after []any) string {
			if aptKeyListed(after, want) {
				return ""
			}
			return "failed to add the key"
		})
	case j.a.Str("state") == "absent" && aptKeyListed(j.before, j.fp):
		r["changed"] = true
		if j.env.Check {
			return nil, nil
		}
		return j.change(ctx, r, "del", j.short, func(after []any) string {
			if aptKeyListed(after, j.fp) {
				return "the key was not removed"
			}
			return ""
		})
	}
	return nil, nil
}

// addAction is how apt-key is to add the key (from the file, the
// keyserver or the key's bytes, downloading them from the url when not
// yet downloaded), or the failure when the download fails or no source
// is given.
func (j *aptKeyJob) addAction(ctx context.Context, r map[string]any) (string, *tasks.Result) {
	switch {
	case j.file != "":
		return "file", nil
	case j.a.Str("keyserver") != "":
		return "recv", nil
	case j.data != "":
		return "data", nil
	case j.a.Str("url") != "":
		body, msg := j.download(ctx, j.a.Str("url"))
		if msg != "" {
			f := shared.Fail(msg)
			return "", &f
		}
		j.data, j.hasData = body, true
		return "data", nil
	}
	f := failData("No key to add ... how did i get here?!?!", r)
	return "", &f
}

// change runs apt-key's action on id and records the keys listed after
// in r; missing says, from that listing, what did not happen ("" when
// the change shows), for the failure it then returns.
func (j *aptKeyJob) change(ctx context.Context, r map[string]any, action, id string, missing func([]any) string) (*tasks.Result, error) {
	after, res, err := j.apply(ctx, action, id, j.shortFormat)
	if err != nil {
		return nil, err
	}
	if res != nil {
		return res, nil
	}
	r["after"] = after
	if m := missing(after); m != "" {
		f := failData(fmt.Sprintf(aptKeyErrNoError, m), r)
		return &f, nil
	}
	return nil, nil
}

// aptKeyListed reports whether the key id k is among the keys listed.
func aptKeyListed(keys []any, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// checkBins returns res once the host is known to have apt-key and gpg
// (Ansible looks for them first), or the failure for the missing one.
func (j *aptKeyJob) checkBins(ctx context.Context, res tasks.Result) (tasks.Result, error) {
	_, _, fres, err := j.run(ctx, aptKeyCheckScript, "")
	if err != nil || fres.Failed {
		return fres, err
	}
	return res, nil
}

// run runs one of apt_key's scripts with the key's bytes (if any) on
// stdin; fres is a failed result when the script could not do its part.
func (j *aptKeyJob) run(ctx context.Context, body, vars string) (shared.Verdict, map[string]string, tasks.Result, error) {
	var stdin io.Reader
	if j.hasData {
		stdin = strings.NewReader(j.data)
	}
	script := shared.SysFuncs + shared.DebBinFuncs + shared.DebBlobFuncs + shared.ShAssign([][2]string{{"keyring", j.keyring},
		{"file", j.file}, {"keydata", shared.BoolFlag(j.hasData)}}) + vars + aptKeyFuncs + body
	out, err := shared.Run(ctx, j.env, script, stdin)
	if err != nil {
		return nil, nil, tasks.Result{}, err
	}
	v, bl := shared.ParseDebBlobs(string(out.Stdout))
	blobs := map[string]string{}
	for _, b := range bl {
		blobs[b.Name] = b.Body
	}
	switch {
	case v["fail"] != "":
		return v, blobs, shared.Fail(v["fail"]), nil
	case v["done"] != "1":
		return v, blobs, shared.Fail(shared.ScriptError(out)), nil
	}
	j.aptKey = v["aptkey"]
	return v, blobs, tasks.Result{}, nil
}

// keys reads the keyring listing _t_list printed, or the failure when
// apt-key could not list it.
func (j *aptKeyJob) keys(v shared.Verdict, blobs map[string]string, short bool) ([]any, *tasks.Result) {
	if v["list_rc"] != "0" {
		r := failData("Unable to list public keys", map[string]any{"cmd": j.cmd("adv --list-public-keys --keyid-format=long"),
			"rc": shared.DebAtoi(v["list_rc"], 1), "stdout": blobs["list_out"], "stderr": blobs["list_err"]})
		return nil, &r
	}
	return aptKeysIn(blobs["list_out"], short), nil
}

// apply adds or removes the key and lists the keyring again.
func (j *aptKeyJob) apply(ctx context.Context, action, id string, short bool) ([]any, *tasks.Result, error) {
	v, blobs, fres, err := j.run(ctx, aptKeyApplyScript, shared.ShAssign([][2]string{{"action", action}, {"id", id},
		{"keyserver", j.a.Str("keyserver")}}))
	if err != nil || fres.Failed {
		return nil, &fres, err
	}
	if v["act_rc"] != "0" {
		r := j.applyFailure(action, id, v, blobs)
		return nil, &r, nil
	}
	after, lres := j.keys(v, blobs, short)
	return after, lres, nil
}

// applyFailure is the failure, as Ansible reports it, when apt-key's
// action on id exited non-zero.
func (j *aptKeyJob) applyFailure(action, id string, v shared.Verdict, blobs map[string]string) tasks.Result {
	rc := shared.DebAtoi(v["act_rc"], 1)
	d := map[string]any{"rc": rc, "stdout": blobs["act_out"], "stderr": blobs["act_err"]}
	var msg string
	switch action {
	case "file":
		msg, d["cmd"], d["keyfile"] = "Unable to add a key from file "+j.file, j.cmd("add "+j.file), j.file
	case "data":
		msg, d["cmd"] = "Unable to add a key from binary data", j.cmd("add -")
	case "del":
		msg, d["cmd"], d["key_id"] = "Unable to remove a key with id "+id, j.cmd("del "+id), id
	case "recv":
		cmd := "adv --no-tty --keyserver " + j.a.Str("keyserver")
		if p := v["proxy"]; p != "" {
			cmd += " --keyserver-options http-proxy=" + p
		}
		d["cmd"] = j.cmd(cmd + " --recv " + id)
		loc := v["loc"]
		d["forced_environment"] = map[string]any{"LANG": loc, "LC_ALL": loc, "LC_MESSAGES": loc}
		msg = fmt.Sprintf("Error fetching key %s from keyserver: %s", id, j.a.Str("keyserver"))
		if rc == 2 && strings.Contains(blobs["act_out"], "not found on keyserver") {
			msg = fmt.Sprintf("Key %s not found on keyserver %s", id, j.a.Str("keyserver"))
			d = map[string]any{"cmd": d["cmd"], "forced_environment": d["forced_environment"]}
		}
	}
	return failData(msg, d)
}

// cmd is an apt-key command line as Ansible reports it.
func (j *aptKeyJob) cmd(rest string) string {
	if j.keyring != "" {
		return j.aptKey + " --keyring " + j.keyring + " " + rest
	}
	return j.aptKey + " " + rest
}

// download fetches a key from the host's network; msg says why it could
// not, as Ansible's apt_key says it.
func (j *aptKeyJob) download(ctx context.Context, u string) (body, msg string) {
	fail := func(why string) (string, string) { return "", fmt.Sprintf("Failed to download key at %s: %s", u, why) }
	client := shared.HostHTTP(j.env, 10*time.Second, j.a.Bool("validate_certs"), true)
	req, err := shared.NewRequest(ctx, tasks.Values{"http_agent": "ansible-httpget"}, http.MethodGet, u, nil)
	if err != nil {
		return fail(err.Error())
	}
	resp, err := client.Do(req)
	if err != nil {
		return fail(shared.RequestError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail(shared.HttpErrorMsg(resp))
	}
	var b bytes.Buffer
	if _, err := io.Copy(&b, io.LimitReader(resp.Body, 16<<20)); err != nil {
		return "", "error getting key id from url: " + u
	}
	return b.String(), ""
}

// aptKeysIn are the key ids in apt-key's or gpg's listing, as Ansible
// reads them: the id of every pub and sub line not marked expired (the
// part after "/" in apt-key's form, the fifth field in gpg's colon
// form), shortened to their last 8 characters in short format.
func aptKeysIn(out string, short bool) []any {
	keys := []any{}
	for _, l := range strings.Split(out, "\n") {
		if !(strings.HasPrefix(l, "pub") || strings.HasPrefix(l, "sub")) || strings.Contains(l, "expired") {
			continue
		}
		code := ""
		if f := strings.Fields(l); len(f) > 1 && strings.Count(f[1], "/") == 1 {
			code = f[1][strings.Index(f[1], "/")+1:]
		} else if c := strings.Split(l, ":"); len(c) > 4 {
			code = c[4]
		} else {
			continue
		}
		if short && len(code) > 8 {
			code = code[len(code)-8:]
		}
		keys = append(keys, code)
	}
	return keys
}

// pyHexInt matches what Python's int(s, 16) accepts.
var pyHexInt = regexp.MustCompile(`^[ \t\n\r\f\v]*[+-]?(0[xX]_?)?[0-9a-fA-F]+(_[0-9a-fA-F]+)*[ \t\n\r\f\v]*$`)

// aptParseKeyID checks a key id as Ansible does (hexadecimal, 8, 16 or
// more characters after an optional 0x) and returns its short id (last
// 8), its fingerprint as listed (last 16) and the whole id, upper case.
func aptParseKeyID(id string, given bool) (short, fp, full string, ok bool) {
	if !given || !pyHexInt.MatchString(id) {
		return "", "", "", false
	}
	full = strings.ToUpper(id)
	full = strings.TrimPrefix(full, "0X")
	n := len(full)
	if n != 8 && n != 16 && n <= 16 {
		return "", "", "", false
	}
	fp = full
	if n > 16 {
		fp = full[n-16:]
	}
	return full[n-8:], fp, full, true
}

// failData is a failed result with msg and data (which register: keeps);
// changed is data's, as Ansible returns it with the failure.
func failData(msg string, data map[string]any) tasks.Result {
	d := map[string]any{}
	for k, v := range data {
		d[k] = v
	}
	return tasks.Result{Failed: true, Changed: d["changed"] == true, Msg: msg, Data: d}
}
