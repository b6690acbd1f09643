package system

import (
	"context"
	_ "embed"
	"fmt"
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

// Run adds or removes the keys.
func (authorizedKeyModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := authorizedKeyArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	user, key, path, state := a.Str("user"), a.Str("key"), a.Str("path"), a.Str("state")
	data := map[string]any{"user": user, "key": key, "manage_dir": a.Bool("manage_dir"), "state": state,
		"exclusive": a.Bool("exclusive"), "validate_certs": a.Bool("validate_certs"), "follow": a.Bool("follow"),
		"path": nil, "key_options": nil, "comment": nil}
	for _, k := range []string{"path", "key_options", "comment"} {
		if a.Has(k) {
			data[k] = a.Str(k)
		}
	}
	if strings.HasPrefix(key, "http") {
		return tasks.Result{Failed: true, Msg: "Error getting key from: " + key + " (tender does not fetch keys from URLs)", Data: map[string]any{}}, nil
	}
	script := fmt.Sprintf("%s%suser=%s\npath=%s\ncheck=%s\nfollow=%s\n%s%s", shared.ShFuncs, shared.SysFuncs, shared.Q(user), shared.ShPath(path),
		shared.BoolFlag(env.Check), shared.BoolFlag(a.Bool("follow")), authKeyReadScript, shared.ReadLinesScript)
	script = shared.AttrFuncs + script
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, content := shared.SplitContent(res.Stdout)
	if v["fail"] != "" {
		return tasks.Result{Failed: true, Msg: v["fail"], Data: map[string]any{}}, nil
	}
	if res.ExitCode != 0 || v["keyfile"] == "" {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(res), Data: map[string]any{}}, nil
	}
	data["keyfile"] = v["keyfile"]

	kf := parseKeyFile(content)
	existing := len(kf.order)
	write := false
	var keep []string
	rank := 0
	for _, line := range strings.Split(strings.ReplaceAll(strings.ReplaceAll(key, "\r\n", "\n"), "\r", "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		nk, ok := parseAuthKey(line, rank)
		if !ok || nk.Skipped {
			return tasks.Result{Failed: true, Msg: "invalid key specified: " + line, Data: map[string]any{}}, nil
		}
		if a.Has("key_options") {
			nk.Opts = parseKeyOptions(a.Str("key_options"))
		}
		if a.Has("comment") {
			nk.Comment = a.Str("comment")
		}
		old, found := kf.byID[nk.Blob]
		matched := found && (sameKey(old, nk) || state == "absent")
		if state == "present" {
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
	if state == "present" && a.Bool("exclusive") {
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
	r := tasks.Result{Data: data}
	if path != "" {
		shared.PathInfo(data, v)
	}
	if !write {
		return r, nil
	}
	after := kf.String()
	r.Changed = true
	if env.Diff {
		data["diff"] = map[string]any{"before_header": v["keyfile"], "after_header": v["writefile"], "before": content, "after": after}
		r.Diff = shared.UnifiedDiff(v["keyfile"], content, after)
	}
	if env.Check {
		return r, nil
	}
	sshdir := path
	if path == "" {
		sshdir = strings.TrimSuffix(v["keyfile"], "/authorized_keys")
	} else if i := strings.LastIndexByte(path, '/'); i >= 0 {
		sshdir = path[:i]
	} else {
		sshdir = "."
	}
	prelude := shared.ShAssign([][2]string{{"manage", shared.BoolFlag(a.Bool("manage_dir"))}, {"sshdir", sshdir},
		{"owner", v["uid"] + ":" + v["gid"]}}) + authKeyPrelude
	msg, wv, err := shared.WriteText(ctx, env, v["writefile"], after, content, v["exists"] == "1", prelude)
	if err != nil {
		return tasks.Result{}, err
	}
	if msg != "" {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	if path != "" {
		shared.PathInfo(data, wv)
	}
	return r, nil
}

func (authorizedKeyModule) Spec() *tasks.Spec { return authorizedKeyArgs }
