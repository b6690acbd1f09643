package system

import (
	"context"
	_ "embed"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// authorizedKeyModule adds or removes SSH keys in a user's
// authorized_keys as ansible.posix's authorized_key module does (keys
// from a URL are not fetched). One round trip reads the file; a second
// writes it, only when it changes.
type authorizedKeyModule struct{}

var _ tasks.Module = (*authorizedKeyModule)(nil)

var authorizedKeyArgs = &tasks.Spec{
	Module: "authorized_key",
	Params: []tasks.Param{
		{Name: "user", Required: true},
		{Name: "key", Required: true},
		{Name: "path", Kind: tasks.Path},
		{Name: "manage_dir", Kind: tasks.Bool, Default: true},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "key_options"},
		{Name: "exclusive", Kind: tasks.Bool, Default: false},
		{Name: "comment"},
		{Name: "validate_certs", Kind: tasks.Bool, Default: true},
		{Name: "follow", Kind: tasks.Bool, Default: false},
	},
}

// authKeyReadScript finds the keys file ($path, or ~$user/.ssh/
// authorized_keys) and prints it, with the user's uid, gid and home.
var authKeyReadScript = authKeyReadScriptBody + shared.PathInfoScript

//go:embed authorized_key_read.sh
var authKeyReadScriptBody string

// authKeyPrelude makes the .ssh directory and the keys file as Ansible
// does before it writes: 0700 and 0600, owned by the user.
//
//go:embed auth_key_prelude.sh
var authKeyPrelude string

// authKeyJob is one authorized_key task: its arguments and the result
// data it starts from.
type authKeyJob struct {
	a                      tasks.Values
	user, key, path, state string
	data                   map[string]any
}

// Run adds or removes the keys: the task decoded, the key file read, the
// new key list planned in Go, and the file written when it changes.
func (authorizedKeyModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := authorizedKeyArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad := decodeAuthKey(a)
	if bad != nil {
		return *bad, nil
	}
	res, err := shared.Run(ctx, env, j.readScript(env.Check), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, content := shared.SplitContent(res.Stdout)
	if v["fail"] != "" {
		return shared.Fail(v["fail"]), nil
	}
	if res.ExitCode != 0 || v["keyfile"] == "" {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	j.data["keyfile"] = v["keyfile"]
	kf := parseKeyFile(content)
	write, fail := j.plan(kf)
	if fail != "" {
		return shared.Fail(fail), nil
	}
	r := tasks.Result{Data: j.data}
	if j.path != "" {
		shared.PathInfo(j.data, v)
	}
	if !write {
		return r, nil
	}
	after := kf.String()
	r.Changed = true
	if env.Diff {
		j.data["diff"] = map[string]any{"before_header": v["keyfile"], "after_header": v["writefile"], "before": content, "after": after}
		r.Diff = shared.UnifiedDiff(v["keyfile"], content, after)
	}
	if env.Check {
		return r, nil
	}
	return j.write(ctx, env, r, v, content, after)
}

// decodeAuthKey reads the task's arguments into a job, or the failure for
// a key given as a URL, which tender does not fetch.
func decodeAuthKey(a tasks.Values) (authKeyJob, *tasks.Result) {
	j := authKeyJob{a: a, user: a.Str("user"), key: a.Str("key"), path: a.Str("path"), state: a.Str("state")}
	j.data = map[string]any{"user": j.user, "key": j.key, "manage_dir": a.Bool("manage_dir"), "state": j.state,
		"exclusive": a.Bool("exclusive"), "validate_certs": a.Bool("validate_certs"), "follow": a.Bool("follow"),
		"path": nil, "key_options": nil, "comment": nil}
	for _, k := range []string{"path", "key_options", "comment"} {
		if a.Has(k) {
			j.data[k] = a.Str(k)
		}
	}
	if strings.HasPrefix(j.key, "http") {
		r := shared.Fail("Error getting key from: " + j.key + " (tender does not fetch keys from URLs)")
		return j, &r
	}
	return j, nil
}

// readScript is the script that finds the user's key file and reads it.
func (j authKeyJob) readScript(check bool) string {
	return shared.AttrFuncs + shared.ShFuncs + shared.SysFuncsLazy + shared.ShAssign([][2]string{{"user", j.user}}) +
		"path=" + shared.ShPath(j.path) + "\n" + shared.ShAssign([][2]string{{"check", shared.BoolFlag(check)},
		{"follow", shared.BoolFlag(j.a.Bool("follow"))}}) + authKeyReadScript + shared.ReadLinesScript
}

// plan brings kf in line with the task's keys (each line of key, with
// key_options and comment): added, replaced or removed, and with
// exclusive every other key removed. It reports whether kf changed, or
// the failure for a key it cannot read.
func (j authKeyJob) plan(kf *keyFile) (bool, string) {
	existing := len(kf.order)
	write := false
	var keep []string
	rank := 0
	for _, line := range strings.Split(strings.ReplaceAll(strings.ReplaceAll(j.key, "\r\n", "\n"), "\r", "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		nk, ok := parseAuthKey(line, rank)
		if !ok || nk.Skipped {
			return false, "invalid key specified: " + line
		}
		if j.a.Has("key_options") {
			nk.Opts = parseKeyOptions(j.a.Str("key_options"))
		}
		if j.a.Has("comment") {
			nk.Comment = j.a.Str("comment")
		}
		old, found := kf.byID[nk.Blob]
		matched := found && (sameKey(old, nk) || j.state == "absent")
		if j.state == "present" {
			keep = append(keep, nk.Blob)
			if found && !matched {
				kf.del(nk.Blob)
				write = true
			}
			if !matched {
				nk.Rank = existing + rank
				kf.set(nk)
				write = true
			}
		} else if matched {
			kf.del(nk.Blob)
			write = true
		}
		rank++
	}
	if j.state == "present" && j.a.Bool("exclusive") {
		wanted := map[string]bool{}
		for _, k := range keep {
			wanted[k] = true
		}
		for _, id := range append([]string(nil), kf.order...) {
			if !wanted[id] {
				kf.del(id)
				write = true
			}
		}
	}
	return write, ""
}

// write writes the new key file (after) over the one read (content,
// whose verdict v names it), making its directory when manage_dir asks.
func (j authKeyJob) write(ctx context.Context, env *tasks.Env, r tasks.Result, v shared.Verdict, content, after string) (tasks.Result, error) {
	sshdir := j.path
	if j.path == "" {
		sshdir = strings.TrimSuffix(v["keyfile"], "/authorized_keys")
	} else if i := strings.LastIndexByte(j.path, '/'); i >= 0 {
		sshdir = j.path[:i]
	} else {
		sshdir = "."
	}
	prelude := shared.ShAssign([][2]string{{"manage", shared.BoolFlag(j.a.Bool("manage_dir"))}, {"sshdir", sshdir},
		{"owner", v["uid"] + ":" + v["gid"]}}) + authKeyPrelude
	msg, wv, err := shared.WriteText(ctx, env, v["writefile"], after, content, v["exists"] == "1", prelude)
	if err != nil {
		return tasks.Result{}, err
	}
	if msg != "" {
		return shared.Fail(msg), nil
	}
	if j.path != "" {
		shared.PathInfo(j.data, wv)
	}
	return r, nil
}

func (authorizedKeyModule) Spec() *tasks.Spec { return authorizedKeyArgs }
