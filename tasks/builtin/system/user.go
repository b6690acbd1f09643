package system

import (
	"context"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// userModule manages a local user account as Ansible's user module does
// on Linux, in one round trip: useradd/usermod/userdel, or busybox's
// adduser/deluser where useradd is missing, chage for the password's
// minimum and maximum age, ssh-keygen for the user's key. A password (a
// crypt hash) and a key's passphrase travel on the script's stdin, never
// on a command line: the hash is set with chpasswd -e, the passphrase
// answers ssh-keygen's prompts; the result shows the password as
// NOT_LOGGING_PASSWORD, as Ansible. local: true (libuser's commands) is
// refused.
type userModule struct{}

var _ tasks.Module = (*userModule)(nil)

var userArgs = &tasks.Spec{
	Module:  "user",
	Refused: userRefused,
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
		{Name: "password_expire_max", Kind: tasks.Int},
		{Name: "password_expire_min", Kind: tasks.Int},
		{Name: "password_lock", Kind: tasks.Bool},
		{Name: "umask"},
		{Name: "seuser"},
		{Name: "local", Kind: tasks.Bool},
		{Name: "generate_ssh_key", Kind: tasks.Bool},
		{Name: "ssh_key_bits", Kind: tasks.Int, Default: 0},
		{Name: "ssh_key_type", Default: "rsa"},
		{Name: "ssh_key_file", Kind: tasks.Path},
		{Name: "ssh_key_comment"},
		{Name: "ssh_key_passphrase"},
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

// userJob is one user task: its arguments, as the script takes them,
// and the warnings they give.
type userJob struct {
	a                tasks.Values
	name, state      string
	groupsText       string   // groups as given, joined with commas
	glist            []string // groups, each once
	pw               string
	pwSet            bool
	expDate, expDays string // expires as a date and in days, empty when negative or not given
	uid              string
	lock             string // password_lock: "1", "0", or "" when not given
	pp               string // ssh_key_passphrase
	ppSet            bool
	sshFile          string // the key's path, relative to the home or absolute
	sshComment       string // "" for Ansible's default, "ansible-generated on <host>"
	warnings         []string
}

// Run adds, changes or removes the user: the task decoded, one round trip
// that compares and applies, and the result built from its verdict.
func (userModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := userArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if a.Has("umask") && a.Bool("local") {
		return tasks.Result{Failed: true, Msg: "'umask' can not be used with 'local'", Data: map[string]any{}}, nil
	}
	if a.Bool("local") {
		return tasks.Result{Failed: true, Msg: "local: true is not supported by tender: it " + libuser, Data: map[string]any{}}, nil
	}
	j := decodeUser(a)
	res, err := shared.RunVerdictLib(ctx, env, j.script(env.Check), j.stdin())
	if err != nil {
		return tasks.Result{}, err
	}
	return shared.WithWarnings(j.result(res, env.Check)), nil
}

// decodeUser reads the task's arguments: the groups list made unique,
// expires turned into a date and a day count, and the warnings Ansible
// gives for append without groups and for a password not hashed.
func decodeUser(a tasks.Values) userJob {
	j := userJob{a: a, name: a.Str("name"), state: a.Str("state"), pw: a.Str("password"), pwSet: a.Has("password")}
	if a.Has("groups") {
		j.groupsText = strings.Join(a.Strings("groups"), ",")
		seen := map[string]bool{}
		for _, g := range strings.Split(j.groupsText, ",") {
			if g = strings.TrimSpace(g); g != "" && !seen[g] {
				seen[g] = true
				j.glist = append(j.glist, g)
			}
		}
	} else if a.Bool("append") {
		j.warnings = append(j.warnings, "'append' is set, but no 'groups' are specified. Use 'groups' for appending new groups.This will change to an error in Ansible 2.14.")
	}
	if j.pwSet && j.pw != "" && plainPassword(j.pw) {
		j.warnings = append(j.warnings, "The input password appears not to have been hashed. The 'password' argument must be encrypted for this module to work properly.")
	}
	if a.Has("expires") {
		if e := a.Float("expires"); e >= 0 {
			j.expDate = time.Unix(int64(math.Floor(e)), 0).UTC().Format("2006-01-02")
			j.expDays = strconv.FormatInt(int64(math.Floor(e))/86400, 10)
		}
	}
	if a.Has("uid") {
		j.uid = strconv.Itoa(a.Int("uid"))
	}
	if a.Has("password_lock") {
		j.lock = "0"
		if a.Bool("password_lock") {
			j.lock = "1"
		}
	}
	j.pp, j.ppSet = a.Str("ssh_key_passphrase"), a.Has("ssh_key_passphrase")
	j.sshFile = a.Str("ssh_key_file")
	if !a.Has("ssh_key_file") {
		j.sshFile = ".ssh/id_" + a.Str("ssh_key_type")
	}
	if a.Has("ssh_key_comment") {
		j.sshComment = a.Str("ssh_key_comment")
	}
	return j
}

// stdin is the script's secret input: the password hash on its first
// line, then the key's passphrase, each only when given. The script
// reads them into $_pw and $_pp.
func (j userJob) stdin() io.Reader {
	if !j.pwSet && !j.ppSet {
		return nil
	}
	var b strings.Builder
	if j.pwSet {
		b.WriteString(j.pw + "\n")
	}
	if j.ppSet {
		b.WriteString(j.pp)
	}
	return strings.NewReader(b.String())
}

// intArg is an integer argument as the script takes it: "" when not given.
func intArg(a tasks.Values, name string) string {
	if !a.Has(name) {
		return ""
	}
	return strconv.Itoa(a.Int(name))
}

// script is user.sh with the task's inputs.
func (j userJob) script(check bool) shared.Lib {
	a := j.a
	return shared.Lib{Pieces: userLib, Script: shared.SysVars + shared.ShAssign([][2]string{
		{"name", j.name}, {"state", j.state}, {"uid", j.uid}, {"nonuniq", shared.BoolFlag(a.Bool("non_unique"))},
		{"group", a.Str("group")}, {"groups_set", shared.BoolFlag(a.Has("groups"))}, {"glist", strings.Join(j.glist, ",")},
		{"append", shared.BoolFlag(a.Bool("append"))}, {"comment_set", shared.BoolFlag(a.Has("comment"))}, {"comment", a.Str("comment")},
		{"home_set", shared.BoolFlag(a.Has("home"))}, {"home", a.Str("home")}, {"shell_set", shared.BoolFlag(a.Has("shell"))},
		{"shell", a.Str("shell")}, {"create_home", shared.BoolFlag(a.Bool("create_home"))}, {"skel", a.Str("skeleton")},
		{"system", shared.BoolFlag(a.Bool("system"))}, {"move_home", shared.BoolFlag(a.Bool("move_home"))},
		{"force", shared.BoolFlag(a.Bool("force"))}, {"remove", shared.BoolFlag(a.Bool("remove"))},
		{"expires_set", shared.BoolFlag(a.Has("expires"))}, {"expires_date", j.expDate}, {"expires_days", j.expDays},
		{"update", a.Str("update_password")}, {"pw_set", shared.BoolFlag(j.pwSet)}, {"check", shared.BoolFlag(check)},
		{"exp_min", intArg(a, "password_expire_min")}, {"exp_max", intArg(a, "password_expire_max")}, {"lock", j.lock},
		{"umask_set", shared.BoolFlag(a.Has("umask"))}, {"umask", a.Str("umask")},
		{"seuser_set", shared.BoolFlag(a.Has("seuser"))}, {"seuser", a.Str("seuser")},
		{"sshkey", shared.BoolFlag(a.Bool("generate_ssh_key"))}, {"ssh_bits", strconv.Itoa(a.Int("ssh_key_bits"))},
		{"ssh_type", a.Str("ssh_key_type")}, {"ssh_file", j.sshFile}, {"ssh_comment", j.sshComment},
		{"ssh_comment_set", shared.BoolFlag(a.Has("ssh_key_comment"))}, {"pp_set", shared.BoolFlag(j.ppSet)},
	}) + "_t_user_main\n",
		// _t_pwentv reads the user's entry first; "changed=0" is the
		// verdict of a task that changed nothing.
		Passwd: j.name, Unchanged: "changed=0"}
}

// userLib is user.sh and what it needs, as Lib pieces.
var userLib = []string{shared.ShFuncs, shared.TmpdLib, shared.SysLib, shared.MainFunc("_t_user_main", userScript)}

// result is what Ansible's user module returns for the script's verdict
// and output.
func (j userJob) result(res transport.Result, check bool) tasks.Result {
	a := j.a
	v, out, errOut := shared.Tailed(res.Stdout)
	if res.ExitCode != 0 && v["fail"] == "" {
		return tasks.Result{Failed: true, Msg: shared.ScriptError(res), Data: map[string]any{}, Warnings: j.warnings}
	}
	switch v["fail"] {
	case "":
	case "rc":
		rc, _ := strconv.Atoi(v["rc"])
		return tasks.Result{Failed: true, Msg: errOut, Warnings: j.warnings, Data: map[string]any{"name": j.name, "rc": rc}}
	default:
		return tasks.Result{Failed: true, Msg: v["fail"], Warnings: j.warnings, Data: map[string]any{}}
	}
	r := tasks.Result{Changed: v["changed"] == "1", Warnings: j.warnings, Data: map[string]any{}}
	if check && r.Changed && (j.state == "absent" || v["created"] == "1") {
		// Ansible stops before doing anything and says only "changed".
		return r
	}
	d := r.Data
	d["name"], d["state"] = j.name, j.state
	shared.OutputData(d, out, errOut)
	if j.state == "absent" {
		if r.Changed {
			d["force"], d["remove"] = a.Bool("force"), a.Bool("remove")
		}
		return r
	}
	if v["created"] == "1" {
		d["system"], d["create_home"] = a.Bool("system"), a.Bool("create_home")
	} else {
		d["append"], d["move_home"] = a.Bool("append"), a.Bool("move_home")
	}
	if j.pwSet {
		d["password"] = "NOT_LOGGING_PASSWORD"
	}
	if _, ok := v["uid"]; ok {
		u, _ := strconv.Atoi(v["uid"])
		g, _ := strconv.Atoi(v["gid"])
		d["uid"], d["group"], d["comment"], d["home"], d["shell"] = u, g, v["gecos"], v["home"], v["shell"]
	}
	if a.Has("groups") {
		d["groups"] = j.groupsText
	}
	if a.Bool("generate_ssh_key") {
		d["ssh_fingerprint"], d["ssh_key_file"], d["ssh_public_key"] = v["ssh_fingerprint"], v["ssh_key_file"], nil
		if pub, ok := v["ssh_public_key"]; ok {
			d["ssh_public_key"] = pub
		}
	}
	return r
}

func (userModule) Spec() *tasks.Spec { return userArgs }
