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
}

// Run adds or removes the key.
func (aptKeyModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := aptKeyArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j := &aptKeyJob{env: env, a: a, keyring: a.Str("keyring"), file: a.Str("file"), data: a.Str("data"), hasData: a.Has("data")}
	keyID, hasID := a.Str("id"), a.Str("id") != ""
	derive := false
	if !hasID {
		if a.Str("keyserver") != "" {
			return j.checkBins(ctx, failData("Missing key_id, required with keyserver.", nil))
		}
		if u := a.Str("url"); u != "" {
			if r, err := j.checkBins(ctx, tasks.Result{}); err != nil || r.Failed {
				return r, err
			}
			body, msg := j.download(ctx, u)
			if msg != "" {
				return shared.Fail(msg), nil
			}
			j.data, j.hasData = body, true
		}
		derive = j.file != "" || j.data != ""
	}
	v, blobs, res, err := j.run(ctx, aptKeyProbeScript, shared.ShAssign([][2]string{{"derive", shared.BoolFlag(derive)}}))
	if err != nil || res.Failed {
		return res, err
	}
	var id any
	if a.Has("id") {
		id = keyID
	}
	if derive {
		if v["gpg_rc"] != "0" {
			what := j.file
			if j.hasData {
				what = "inline data"
			}
			return failData(fmt.Sprintf("Unable to extract key from '%s'", what),
				map[string]any{"stdout": blobs["gpg_out"], "stderr": blobs["gpg_err"]}), nil
		}
		if keys := aptKeysIn(blobs["gpg_out"], false); len(keys) > 0 {
			keyID, id = keys[0].(string), keys[0]
		}
	}
	r := map[string]any{"changed": false, "id": id}
	short, fp, full, ok := aptParseKeyID(keyID, id != nil)
	if !ok {
		return failData("Invalid key_id", r), nil
	}
	r["short_id"], r["fp"], r["key_id"] = short, fp, full
	shortFormat := len(full) == 8
	before, lres := j.keys(v, blobs, shortFormat)
	if lres != nil {
		return *lres, nil
	}
	r["before"] = before
	has := func(keys []any, k string) bool {
		for _, x := range keys {
			if x == k {
				return true
			}
		}
		return false
	}
	want := fp
	if shortFormat {
		want = short
	}
	switch {
	case j.a.Str("state") == "present" && !has(before, want):
		r["changed"] = true
		if env.Check {
			break
		}
		action := ""
		switch {
		case j.file != "":
			action = "file"
		case j.a.Str("keyserver") != "":
			action = "recv"
		case j.data != "":
			action = "data"
		case j.a.Str("url") != "":
			body, msg := j.download(ctx, j.a.Str("url"))
			if msg != "" {
				return shared.Fail(msg), nil
			}
			j.data, j.hasData, action = body, true, "data"
		default:
			return failData("No key to add ... how did i get here?!?!", r), nil
		}
		after, res, err := j.apply(ctx, action, full, shortFormat)
		if err != nil || res != nil {
			return *res, err
		}
		r["after"] = after
		if !has(after, want) {
			return failData(fmt.Sprintf(aptKeyErrNoError, "failed to add the key"), r), nil
		}
	case j.a.Str("state") == "absent" && has(before, fp):
		r["changed"] = true
		if env.Check {
			break
		}
		after, res, err := j.apply(ctx, "del", short, shortFormat)
		if err != nil || res != nil {
			return *res, err
		}
		r["after"] = after
		if has(after, fp) {
			return failData(fmt.Sprintf(aptKeyErrNoError, "the key was not removed"), r), nil
		}
	}
	return tasks.Result{Changed: r["changed"] == true, Data: r}, nil
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
		r := failData(msg, d)
		return nil, &r, nil
	}
	after, lres := j.keys(v, blobs, short)
	return after, lres, nil
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
