package system

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	_ "embed"
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// knownHostsModule adds or removes a host's key in a known_hosts file as
// Ansible's known_hosts module does, looking the host up with the host's
// ssh-keygen -F (which understands hashed names). One round trip reads;
// a second writes, only when something changes.
type knownHostsModule struct{}

var _ tasks.Module = (*knownHostsModule)(nil)

var knownHostsArgs = &tasks.Spec{
	Module: "known_hosts",
	Params: []tasks.Param{
		{Name: "name", Required: true, Aliases: []string{"host"}},
		{Name: "key"},
		{Name: "path", Kind: tasks.Path, Default: "~/.ssh/known_hosts"},
		{Name: "hash_host", Kind: tasks.Bool, Default: false},
		{Name: "state", Default: "present", Choices: []string{"absent", "present"}},
	},
}

// The markers around ssh-keygen -F's output in knownHostsReadScript's.
const (
	kgOutMark = "__T_KGO__"
	kgErrMark = "__T_KGE__"
)

// knownHostsReadScript checks that $key names $host, then prints the
// expanded path, ssh-keygen -F's answer for $host in it and its content.
var knownHostsReadScript = "_t_kgo=" + kgOutMark + "\n_t_kge=" + kgErrMark + "\n" + shared.MarkVars + knownHostsReadScriptBody

//go:embed known_hosts_read.sh
var knownHostsReadScriptBody string

var (
	hostListRe  = regexp.MustCompile(`\S+(\s+)?,(\s+)?`)
	foundLineRe = regexp.MustCompile(`found: line (\d+)`)
)

// hashHostKey replaces the key line's host field by an HMAC-SHA1 hash of
// host under a random salt, as ssh-keygen -H writes it.
func hashHostKey(host, key string) string {
	salt := make([]byte, 20)
	rand.Read(salt)
	m := hmac.New(sha1.New, salt)
	m.Write([]byte(host))
	parts := strings.Fields(key)
	i := 0
	if strings.HasPrefix(parts[0], "@") {
		i = 1
	}
	parts[i] = "|1|" + base64.StdEncoding.EncodeToString(salt) + "|" + base64.StdEncoding.EncodeToString(m.Sum(nil))
	return strings.Join(parts, " ")
}

// knownHostsEntry is a known_hosts line's fields, without its comment.
type knownHostsEntry struct{ options, host, typ, key string }

func parseKnownHostsLine(l string) (knownHostsEntry, bool) {
	k := strings.Fields(l)
	if len(k) > 0 && strings.HasPrefix(k[0], "@") && len(k) >= 4 {
		return knownHostsEntry{k[0], k[1], k[2], k[3]}, true
	}
	if len(k) >= 3 {
		return knownHostsEntry{"", k[0], k[1], k[2]}, true
	}
	return knownHostsEntry{}, false
}

// knownHostsJob is one known_hosts task: its decoded arguments, then the
// file and ssh-keygen's answer as read from the host, and the plan.
type knownHostsJob struct {
	name, state, host, key, pathArg string
	// keyParam is the key argument as given, nil when absent.
	keyParam any
	hash     bool
	// Set by read: the read script's verdict, the expanded path, the
	// file's content ("" when it does not exist) and ssh-keygen -F's
	// stdout and stderr.
	v             shared.Verdict
	path, content string
	kgOut, kgErr  string
	// Set by locate: whether the host has a key in the file, whether the
	// key must replace it, and the 1-based line to drop (0 for none).
	found, replace bool
	line           int
	// Set by plan: the file as it would be and Ansible's diff of it.
	after string
	diff  map[string]any
}

// Run adds or removes the host's key.
func (knownHostsModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := knownHostsArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad := decodeKnownHosts(a)
	if bad != nil {
		return *bad, nil
	}
	if r, done, err := j.read(ctx, env); done || err != nil {
		return r, err
	}
	j.plan()
	r, done := j.result(env)
	if done {
		return r, nil
	}
	if j.found && j.key == "" && j.state == "absent" {
		return j.remove(ctx, env, r)
	}
	return j.write(ctx, env, r)
}

// decodeKnownHosts checks the decoded arguments and returns the task's
// job with its key line ready to write (hashed when asked), or the failed
// result Ansible gives for them.
func decodeKnownHosts(a tasks.Values) (knownHostsJob, *tasks.Result) {
	j := knownHostsJob{name: a.Str("name"), state: a.Str("state"), hash: a.Bool("hash_host"), key: a.Str("key"), pathArg: a.Str("path")}
	j.host = strings.ToLower(j.name)
	fail := func(msg string) (knownHostsJob, *tasks.Result) {
		r := shared.Fail(msg)
		return knownHostsJob{}, &r
	}
	if a.Has("key") {
		j.keyParam = j.key
	}
	if j.key == "" && j.state != "absent" {
		return fail("No key specified when adding a host")
	}
	if j.key != "" && j.hash {
		j.key = hashHostKey(j.host, j.key)
	}
	if j.key != "" && !strings.HasSuffix(j.key, "\n") {
		j.key += "\n"
	}
	if j.key != "" && hostListRe.MatchString(j.host) {
		return fail("Comma separated list of names is not supported. Please pass a single name to lookup in the known_hosts file.")
	}
	return j, nil
}

// read fetches the file and ssh-keygen -F's answer for the host in one
// round trip, then locates the host's key; done is set, with the failed
// result, when that fails.
func (j *knownHostsJob) read(ctx context.Context, env *tasks.Env) (r tasks.Result, done bool, err error) {
	script := fmt.Sprintf("%sf=%s\nhost=%s\nkey=%s\n%s", shared.AttrFuncs, shared.ShPath(j.pathArg), shared.Q(j.host), shared.Q(j.key), knownHostsReadScript)
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, true, err
	}
	_, j.content = shared.SplitContent(res.Stdout)
	pre, kg, _ := strings.Cut(string(res.Stdout), kgOutMark+"\n")
	kgOut, kgErr, _ := strings.Cut(kg, kgErrMark+"\n")
	j.kgErr, _, _ = strings.Cut(kgErr, shared.ContentMark+"\n")
	j.kgOut = kgOut
	j.v = shared.ParseVerdict([]byte(pre))
	if j.v["fail"] != "" {
		return shared.Fail(j.v["fail"]), true, nil
	}
	j.path = j.v["path"]
	if res.ExitCode != 0 || j.path == "" {
		return shared.Fail(shared.ScriptError(res)), true, nil
	}
	if j.v["exists"] != "1" {
		j.content = ""
	}
	if msg := j.locate(); msg != "" {
		return shared.Fail(msg), true, nil
	}
	return tasks.Result{}, false, nil
}

// locate reads ssh-keygen -F's answer into found, replace and line, and
// returns ssh-keygen's failure message when it failed.
func (j *knownHostsJob) locate() string {
	if j.v["rc"] == "" { // the path does not exist: ssh-keygen -F did not run
		return ""
	}
	rc, _ := strconv.Atoi(j.v["rc"])
	switch {
	case j.kgOut == "" && j.kgErr == "" && (rc == 0 || rc == 1):
	case rc != 0:
		return fmt.Sprintf("ssh-keygen failed (rc=%d, stdout='%s',stderr='%s')", rc, j.kgOut, j.kgErr)
	case j.key == "":
		j.found = true
	default:
		j.found = true
		j.replace, j.line = matchKnownHost(j.key, j.kgOut)
	}
	return ""
}

// matchKnownHost compares the key line with the lines ssh-keygen -F
// found: replace is unset when one is the same key (line is then its
// line), and line is the first with the same key type otherwise.
func matchKnownHost(key, kgOut string) (replace bool, line int) {
	want, _ := parseKnownHostsLine(key)
	at := 0
	for _, l := range strings.Split(kgOut, "\n") {
		if l == "" {
			continue
		}
		if l[0] == '#' {
			if m := foundLineRe.FindStringSubmatch(l); m != nil {
				at, _ = strconv.Atoi(m[1])
			}
			continue
		}
		got, _ := parseKnownHostsLine(l)
		if strings.HasPrefix(want.host, "|1|") && strings.HasPrefix(got.host, "|1|") {
			want.host = got.host
		}
		if want == got {
			return false, at
		}
		if want.typ == got.typ {
			return true, at
		}
	}
	return true, 0
}

// plan computes the file as it would be, without I/O, and Ansible's diff
// of it.
func (j *knownHostsJob) plan() {
	j.diff = map[string]any{"before_header": j.path, "after_header": j.path, "before": "", "after": ""}
	if j.v["exists"] != "1" {
		j.diff["before_header"] = "/dev/null"
	}
	j.diff["before"] = j.content
	lines := shared.SplitLinesKeep(j.content)
	if (j.replace || j.state == "absent") && j.line >= 1 && j.line <= len(lines) {
		lines = append(lines[:j.line-1:j.line-1], lines[j.line:]...)
	}
	if j.state == "present" && (j.replace || j.line == 0) {
		lines = append(lines, j.key)
	}
	j.after = strings.Join(lines, "")
	j.diff["after"] = j.after
}

// result is the task's result before any write; done is set when it is
// final: nothing to do, nothing changes, or check mode.
func (j *knownHostsJob) result(env *tasks.Env) (r tasks.Result, done bool) {
	data := map[string]any{"name": j.name, "key": j.keyParam, "path": j.path, "hash_host": j.hash, "state": j.state, "diff": j.diff}
	r = tasks.Result{Data: data}
	shared.PathInfo(data, j.v)
	if j.state == "absent" && j.line == 0 && j.key != "" {
		return r, true
	}
	r.Changed = j.replace || j.found != (j.state == "present")
	if env.Diff && r.Changed {
		r.Diff = shared.UnifiedDiff(j.path, j.content, j.after)
	}
	if env.Check {
		return tasks.Result{Changed: r.Changed, Diff: r.Diff, Data: map[string]any{"diff": j.diff}}, true
	}
	return r, !r.Changed
}

// remove drops every key of the host with ssh-keygen -R in the second
// round trip and returns r with the file's new attributes, or the failed
// result.
func (j *knownHostsJob) remove(ctx context.Context, env *tasks.Env, r tasks.Result) (tasks.Result, error) {
	script := shared.AttrFuncs + shared.ShAssign([][2]string{{"pi", j.path}, {"host", j.host}}) + knownHostsRemoveScript + shared.PathInfoScript
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	if res.ExitCode != 0 {
		return shared.Fail(shared.ScriptError(res)), nil
	}
	shared.PathInfo(r.Data, shared.ParseVerdict(res.Stdout))
	return r, nil
}

// write replaces the file by the planned content in the second round trip
// and returns r with the file's new attributes, or the failed result.
func (j *knownHostsJob) write(ctx context.Context, env *tasks.Env, r tasks.Result) (tasks.Result, error) {
	msg, wv, err := shared.WriteText(ctx, env, j.path, j.after, j.content, j.v["exists"] == "1", shared.ShAssign([][2]string{{"mode", "0644"}}))
	if err != nil {
		return tasks.Result{}, err
	}
	if msg != "" {
		return shared.Fail(msg), nil
	}
	shared.PathInfo(r.Data, wv)
	return r, nil
}

func (knownHostsModule) Spec() *tasks.Spec { return knownHostsArgs }

// knownHostsRemoveScript removes a host's keys with ssh-keygen -R.
//
//go:embed known_hosts_remove.sh
var knownHostsRemoveScript string
