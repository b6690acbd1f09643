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

// Run adds or removes the host's key.
func (knownHostsModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := knownHostsArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	name, state, hash := a.Str("name"), a.Str("state"), a.Bool("hash_host")
	host := strings.ToLower(name)
	fail := func(msg string) (tasks.Result, error) {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	var keyParam any
	key := a.Str("key")
	if a.Has("key") {
		keyParam = key
	}
	if key == "" && state != "absent" {
		return fail("No key specified when adding a host")
	}
	if key != "" && hash {
		key = hashHostKey(host, key)
	}
	if key != "" && !strings.HasSuffix(key, "\n") {
		key += "\n"
	}
	if key != "" && hostListRe.MatchString(host) {
		return fail("Comma separated list of names is not supported. Please pass a single name to lookup in the known_hosts file.")
	}
	script := fmt.Sprintf("%sf=%s\nhost=%s\nkey=%s\n%s", shared.AttrFuncs, shared.ShPath(a.Str("path")), shared.Q(host), shared.Q(key), knownHostsReadScript)
	res, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	_, content := shared.SplitContent(res.Stdout)
	pre, kg, _ := strings.Cut(string(res.Stdout), kgOutMark+"\n")
	kgOut, kgErr, _ := strings.Cut(kg, kgErrMark+"\n")
	kgErr, _, _ = strings.Cut(kgErr, shared.ContentMark+"\n")
	v := shared.ParseVerdict([]byte(pre))
	if v["fail"] != "" {
		return fail(v["fail"])
	}
	path := v["path"]
	if res.ExitCode != 0 || path == "" {
		return fail(shared.ScriptError(res))
	}

	found, replace, line := false, false, 0
	if v["rc"] != "" { // the path exists: ssh-keygen -F looked in it
		rc, _ := strconv.Atoi(v["rc"])
		switch {
		case kgOut == "" && kgErr == "" && (rc == 0 || rc == 1):
		case rc != 0:
			return fail(fmt.Sprintf("ssh-keygen failed (rc=%d, stdout='%s',stderr='%s')", rc, kgOut, kgErr))
		case key == "":
			found = true
		default:
			found, replace = true, true
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
					replace, line = false, at
					break
				}
				if want.typ == got.typ {
					line = at
					break
				}
			}
		}
	}

	// The file as it would be, and Ansible's diff of it.
	diff := map[string]any{"before_header": path, "after_header": path, "before": "", "after": ""}
	if v["exists"] != "1" {
		diff["before_header"] = "/dev/null"
		content = ""
	}
	diff["before"] = content
	lines := shared.SplitLinesKeep(content)
	if (replace || state == "absent") && line >= 1 && line <= len(lines) {
		lines = append(lines[:line-1:line-1], lines[line:]...)
	}
	if state == "present" && (replace || line == 0) {
		lines = append(lines, key)
	}
	after := strings.Join(lines, "")
	diff["after"] = after

	data := map[string]any{"name": name, "key": keyParam, "path": path, "hash_host": hash, "state": state, "diff": diff}
	r := tasks.Result{Data: data}
	shared.PathInfo(data, v)
	if state == "absent" && line == 0 && key != "" {
		return r, nil
	}
	r.Changed = replace || found != (state == "present")
	if env.Diff && r.Changed {
		r.Diff = shared.UnifiedDiff(path, content, after)
	}
	if env.Check {
		return tasks.Result{Changed: r.Changed, Diff: r.Diff, Data: map[string]any{"diff": diff}}, nil
	}
	if !r.Changed {
		return r, nil
	}
	if found && key == "" && state == "absent" {
		script = shared.AttrFuncs + shared.ShAssign([][2]string{{"pi", path}, {"host", host}}) + knownHostsRemoveScript + shared.PathInfoScript
		res, err := shared.Run(ctx, env, script, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		if res.ExitCode != 0 {
			return fail(shared.ScriptError(res))
		}
		shared.PathInfo(data, shared.ParseVerdict(res.Stdout))
		return r, nil
	}
	msg, wv, err := shared.WriteText(ctx, env, path, after, content, v["exists"] == "1", shared.ShAssign([][2]string{{"mode", "0644"}}))
	if err != nil {
		return tasks.Result{}, err
	}
	if msg != "" {
		return fail(msg)
	}
	shared.PathInfo(data, wv)
	return r, nil
}

func (knownHostsModule) Spec() *tasks.Spec { return knownHostsArgs }

// knownHostsRemoveScript removes a host's keys with ssh-keygen -R.
//
//go:embed known_hosts_remove.sh
var knownHostsRemoveScript string
