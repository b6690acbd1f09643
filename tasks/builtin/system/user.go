package system

import (
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// userModule manages a local user account as Ansible's user module does
// on Linux, in one round trip: useradd/usermod/userdel, or busybox's
// adduser/deluser where useradd is missing. A password (a crypt hash)
// travels in the script's environment on stdin and is set with
// chpasswd -e; the result shows it as NOT_LOGGING_PASSWORD, as Ansible.
type userModule struct{}

var _ tasks.Module = (*userModule)(nil)

var userArgs = &tasks.Spec{
	Module: "user",
	Params: []tasks.Param{
		{Name: "name", Required: true, Aliases: []string{"user"}},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
		{Name: "uid", Kind: tasks.Int},
		{Name: "non_unique", Kind: tasks.Bool, Default: false},
		{Name: "group"},
		{Name: "groups", Kind: tasks.List},
		{Name: "append", Kind: tasks.Bool, Default: false},
		{Name: "comment"},
		{Name: "home", Kind: tasks.Path},
		{Name: "shell"},
		{Name: "password"},
		{Name: "update_password", Default: "always", Choices: []string{"always", "on_create"}},
		{Name: "create_home", Kind: tasks.Bool, Default: true, Aliases: []string{"createhome"}},
		{Name: "skeleton"},
		{Name: "system", Kind: tasks.Bool, Default: false},
		{Name: "move_home", Kind: tasks.Bool, Default: false},
		{Name: "force", Kind: tasks.Bool, Default: false},
		{Name: "remove", Kind: tasks.Bool, Default: false},
		{Name: "expires", Kind: tasks.Float},
	},
}

// hashChars are the characters a crypt hash's last field may hold.
var hashChars = regexp.MustCompile(`[^a-zA-Z0-9./=]`)

// plainPassword tells whether pw looks like a clear-text password rather
// than a crypt hash, by the checks Ansible's user module warns on.
func plainPassword(pw string) bool {
	switch pw {
	case "", "*", "!", "*************":
		return false
	}
	if strings.ContainsAny(pw, ":*!") || !strings.Contains(pw, "$") {
		return true
	}
	f := strings.Split(pw, "$")
	if len(f) < 3 {
		return true
	}
	last := f[len(f)-1]
	want := map[string]int{"1": 22, "5": 43, "6": 86}
	if n, ok := want[f[1]]; ok && len(last) != n {
		return true
	}
	return hashChars.MatchString(last)
}

// Run adds, changes or removes the user.
func (m userModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	r, err := m.apply(ctx, env, args)
	return shared.WithWarnings(r), err
}

func (userModule) apply(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := userArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, state := a.Str("name"), a.Str("state")
	var warnings []string
	var groupsText string
	var glist []string
	if a.Has("groups") {
		raw := a.Strings("groups")
		groupsText = strings.Join(raw, ",")
		seen := map[string]bool{}
		for _, g := range strings.Split(groupsText, ",") {
			if g = strings.TrimSpace(g); g != "" && !seen[g] {
				seen[g] = true
				glist = append(glist, g)
			}
		}
	} else if a.Bool("append") {
		warnings = append(warnings, "'append' is set, but no 'groups' are specified. Use 'groups' for appending new groups.This will change to an error in Ansible 2.14.")
	}
	pw, pwSet := a.Str("password"), a.Has("password")
	if pwSet && pw != "" && plainPassword(pw) {
		warnings = append(warnings, "The input password appears not to have been hashed. The 'password' argument must be encrypted for this module to work properly.")
	}
	expDate, expDays := "", ""
	if a.Has("expires") {
		e := a.Float("expires")
		if e >= 0 {
			expDate = time.Unix(int64(math.Floor(e)), 0).UTC().Format("2006-01-02")
			expDays = strconv.FormatInt(int64(math.Floor(e))/86400, 10)
		}
	}
	uid := ""
	if a.Has("uid") {
		uid = strconv.Itoa(a.Int("uid"))
	}
	vars := []struct{ k, v string }{
		{"name", name}, {"state", state}, {"uid", uid}, {"nonuniq", shared.BoolFlag(a.Bool("non_unique"))},
		{"group", a.Str("group")}, {"groups_set", shared.BoolFlag(a.Has("groups"))}, {"glist", strings.Join(glist, ",")},
		{"append", shared.BoolFlag(a.Bool("append"))}, {"comment_set", shared.BoolFlag(a.Has("comment"))}, {"comment", a.Str("comment")},
		{"home_set", shared.BoolFlag(a.Has("home"))}, {"home", a.Str("home")}, {"shell_set", shared.BoolFlag(a.Has("shell"))},
		{"shell", a.Str("shell")}, {"create_home", shared.BoolFlag(a.Bool("create_home"))}, {"skel", a.Str("skeleton")},
		{"system", shared.BoolFlag(a.Bool("system"))}, {"move_home", shared.BoolFlag(a.Bool("move_home"))},
		{"force", shared.BoolFlag(a.Bool("force"))}, {"remove", shared.BoolFlag(a.Bool("remove"))},
		{"expires_set", shared.BoolFlag(a.Has("expires"))}, {"expires_date", expDate}, {"expires_days", expDays},
		{"update", a.Str("update_password")}, {"pw_set", shared.BoolFlag(pwSet)}, {"check", shared.BoolFlag(env.Check)},
	}
	var script strings.Builder
	script.WriteString(shared.ShFuncs + shared.SysFuncs)
	for _, kv := range vars {
		fmt.Fprintf(&script, "%s=%s\n", kv.k, shared.Q(kv.v))
	}
	script.WriteString(userScript)
	var secret io.Reader
	if pwSet {
		secret = strings.NewReader(pw) // the script reads it into $_pw
	}
	res, err := shared.Run(ctx, env, script.String(), secret)
	if err != nil {
		return tasks.Result{}, err
	}
	v, out, errOut := shared.Tailed(res.Stdout)
	if res.ExitCode != 0 && v["fail"] == "" {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(res), Data: map[string]any{}, Warnings: warnings}, nil
	}
	switch v["fail"] {
	case "":
	case "rc":
		rc, _ := strconv.Atoi(v["rc"])
		return tasks.Result{Failed: true, Msg: errOut, Warnings: warnings, Data: map[string]any{"name": name, "rc": rc}}, nil
	default:
		return tasks.Result{Failed: true, Msg: v["fail"], Warnings: warnings, Data: map[string]any{}}, nil
	}
	r := tasks.Result{Changed: v["changed"] == "1", Warnings: warnings, Data: map[string]any{}}
	if env.Check && r.Changed && (state == "absent" || v["created"] == "1") {
		// Ansible stops before doing anything and says only "changed".
		return r, nil
	}
	d := r.Data
	d["name"], d["state"] = name, state
	shared.OutputData(d, out, errOut)
	if state == "absent" {
		if r.Changed {
			d["force"], d["remove"] = a.Bool("force"), a.Bool("remove")
		}
		return r, nil
	}
	if v["created"] == "1" {
		d["system"], d["create_home"] = a.Bool("system"), a.Bool("create_home")
	} else {
		d["append"], d["move_home"] = a.Bool("append"), a.Bool("move_home")
	}
	if pwSet {
		d["password"] = "NOT_LOGGING_PASSWORD"
	}
	if _, ok := v["uid"]; ok {
		u, _ := strconv.Atoi(v["uid"])
		g, _ := strconv.Atoi(v["gid"])
		d["uid"], d["group"], d["comment"], d["home"], d["shell"] = u, g, v["gecos"], v["home"], v["shell"]
	}
	if a.Has("groups") {
		d["groups"] = groupsText
	}
	return r, nil
}

func (userModule) Spec() *tasks.Spec { return userArgs }
