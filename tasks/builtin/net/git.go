package net

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// gitModule clones, fetches and checks out a git repository on the host
// with the host's git, as ansible-core 2.14's git module does: the same
// git commands in the same order (gitScript follows the module function
// by function), the same result (before, after, remote_url_changed,
// submodules_changed, the diff) and the same failures. One round trip.
//
// Secrets: a repository URL with a password never reaches a command
// line. git is given an alias of it instead, which it rewrites through
// configuration passed in its environment, and the URL is written into
// the repository's configuration as ansible-core's git leaves it; the
// password is hidden (********) wherever a result would show it.
//
// One deliberate difference: clone=no for a repository that is not
// there is unchanged (ansible-core's reports a change it did not make,
// on every run); it still returns the remote's revision as after.
type gitModule struct{}

var _ tasks.Module = gitModule{}

var gitArgs = &tasks.Spec{
	Module: "git",
	Params: []tasks.Param{
		{Name: "repo", Required: true, Aliases: []string{"name"}},
		{Name: "dest", Kind: tasks.Path},
		{Name: "version", Default: "HEAD"},
		{Name: "remote", Default: "origin"},
		{Name: "refspec"},
		{Name: "reference"},
		{Name: "force", Kind: tasks.Bool, Default: false},
		{Name: "depth", Kind: tasks.Int},
		{Name: "clone", Kind: tasks.Bool, Default: true},
		{Name: "update", Kind: tasks.Bool, Default: true},
		{Name: "verify_commit", Kind: tasks.Bool, Default: false},
		{Name: "gpg_whitelist", Kind: tasks.List, Default: []any{}},
		{Name: "accept_hostkey", Kind: tasks.Bool, Default: false},
		{Name: "accept_newhostkey", Kind: tasks.Bool, Default: false},
		{Name: "key_file", Kind: tasks.Path},
		{Name: "ssh_opts"},
		{Name: "executable", Kind: tasks.Path},
		{Name: "bare", Kind: tasks.Bool, Default: false},
		{Name: "recursive", Kind: tasks.Bool, Default: true},
		{Name: "single_branch", Kind: tasks.Bool, Default: false},
		{Name: "track_submodules", Kind: tasks.Bool, Default: false},
		{Name: "umask", Kind: tasks.Raw},
		{Name: "archive", Kind: tasks.Path},
		{Name: "archive_prefix"},
		{Name: "separate_git_dir", Kind: tasks.Path},
	},
	MutuallyExclusive: [][]string{{"separate_git_dir", "bare"}, {"accept_hostkey", "accept_newhostkey"}},
}

// Spec returns git's parameters.
func (gitModule) Spec() *tasks.Spec { return gitArgs }

// gitAlias is what git's command lines say for a repository URL that
// holds a password (see gitModule).
const gitAlias = "tender-git-url:"

// Run brings dest to the repository's version.
func (gitModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := gitArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if a.Has("archive_prefix") && !a.Has("archive") {
		return tasks.Result{}, fmt.Errorf("missing parameter(s) required by 'archive_prefix': archive")
	}
	repo := a.Str("repo")
	secret, hasSecret := gitPassword(repo)
	mask := vcsMask{secrets: secret.forms}
	if hasSecret {
		mask.alias, mask.real, mask.shown = gitAlias, repo, shared.PySanitize(repo)
	}
	script := shared.BlobFuncs + shared.DebBinFuncs + vcsFuncs + gitVars(a, env, secret, hasSecret) + gitFuncs + gitApplyFuncs + gitScript
	// what may hold the password travels in the environment, which a
	// task run in the background keeps out of the files it writes
	out, err := shared.RunWith(ctx, env, script, map[string]string{"TENDER_GIT_REPO": repo,
		"TENDER_GIT_URL_CFG": gitConfigEscape(repo, true), "TENDER_GIT_PASSWORD": secret.password}, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v, b := shared.ParseBlobs(out.Stdout)
	if r, failed := vcsFailure(v, b, mask); failed {
		if _, ok := v["changed"]; ok {
			gitResult(r.Data, v, b)
			r.Changed = r.Data["changed"] == true
		}
		r.Warnings = vcsWarnings(b)
		return shared.WithWarnings(mask.result(r)), nil
	}
	if v["done"] != "1" {
		return shared.Fail(shared.ScriptError(out)), nil
	}
	d := map[string]any{}
	gitResult(d, v, b)
	res := tasks.Result{Changed: d["changed"] == true, Msg: b["rmsg"], Warnings: vcsWarnings(b), Data: d}
	if s, ok := b["diff"]; ok {
		d["diff"] = map[string]any{"prepared": s}
		res.Diff = s
	}
	return shared.WithWarnings(mask.result(res)), nil
}

// gitResult adds to d what _v_result printed: changed, before, after,
// remote_url_changed, submodules_changed, msg, git_dir_before and
// git_dir_now, each when the module had set it.
func gitResult(d map[string]any, v shared.Verdict, b map[string]string) {
	d["changed"] = v["changed"] == "1"
	gitRev(d, "before", b["before"])
	gitRev(d, "after", b["after"])
	switch v["rurl"] {
	case "True", "False":
		d["remote_url_changed"] = v["rurl"] == "True"
	case "None":
		d["remote_url_changed"] = nil
	case "''":
		d["remote_url_changed"] = ""
	}
	if v["subm"] == "1" {
		d["submodules_changed"] = true
	}
	if s, ok := b["rmsg"]; ok {
		d["msg"] = s
	}
	if s, ok := b["gdb"]; ok {
		d["git_dir_before"] = s
	}
	if s, ok := b["gdn"]; ok {
		d["git_dir_now"] = s
	}
}

// gitRev sets d[key] from what _v_result printed for it: absent, null or
// a revision.
func gitRev(d map[string]any, key, enc string) {
	switch {
	case enc == "n":
		d[key] = nil
	case strings.HasPrefix(enc, "="):
		d[key] = enc[1:]
	}
}

// gitVars are gitScript's inputs.
func gitVars(a tasks.Values, env *tasks.Env, secret gitSecret, hasSecret bool) string {
	depth := ""
	if a.Has("depth") {
		depth = strconv.Itoa(a.Int("depth"))
	}
	umask, umaskErr, umaskDet := gitUmask(a)
	vars := shared.ShAssign([][2]string{
		{"version", a.Str("version")},
		{"remote", a.Str("remote")}, {"refspec", a.Str("refspec")}, {"reference", a.Str("reference")},
		{"force", shared.BoolFlag(a.Bool("force"))}, {"depth", depth}, {"clone", shared.BoolFlag(a.Bool("clone"))},
		{"update", shared.BoolFlag(a.Bool("update"))}, {"bare", shared.BoolFlag(a.Bool("bare"))},
		{"recursive", shared.BoolFlag(a.Bool("recursive"))}, {"single", shared.BoolFlag(a.Bool("single_branch"))},
		{"track", shared.BoolFlag(a.Bool("track_submodules"))}, {"verify", shared.BoolFlag(a.Bool("verify_commit"))},
		{"wl", strings.Join(a.Strings("gpg_whitelist"), "\n")},
		{"ssh_opts", a.Str("ssh_opts")}, {"ssh_opts_set", shared.BoolFlag(a.Has("ssh_opts"))},
		{"accept", shared.BoolFlag(a.Bool("accept_hostkey"))}, {"accept_new", shared.BoolFlag(a.Bool("accept_newhostkey"))},
		{"umask", umask}, {"umask_err", umaskErr}, {"umask_det", umaskDet},
		{"prefix", a.Str("archive_prefix")}, {"prefix_set", shared.BoolFlag(a.Has("archive_prefix"))},
		{"check", shared.BoolFlag(env.Check)}, {"diff", shared.BoolFlag(env.Diff)},
		{"secret", shared.BoolFlag(hasSecret)}, {"url", gitAlias}, {"stripped", secret.stripped},
		{"remote_cfg", gitConfigEscape(a.Str("remote"), false)},
	})
	for _, p := range [][2]string{{"dest", "dest"}, {"sep", "separate_git_dir"}, {"key", "key_file"}, {"archive", "archive"}, {"gitexe", "executable"}} {
		vars += p[0] + "="
		if s := a.Str(p[1]); s != "" {
			vars += shared.ShPath(s)
		}
		vars += "\n"
	}
	return vars
}

// gitSecret is a repository URL that holds a password: the password
// (decoded, for git's credential helper), the forms it takes in text
// and the URL without it.
type gitSecret struct {
	password, stripped string
	forms              []string
}

// gitPassword finds the password of a repository URL, if it has one.
func gitPassword(repo string) (gitSecret, bool) {
	u, err := url.Parse(repo)
	if err != nil || u.User == nil {
		return gitSecret{}, false
	}
	p, ok := u.User.Password()
	i := strings.Index(repo, "://")
	if !ok || p == "" || i < 0 {
		return gitSecret{}, false
	}
	rest := repo[i+3:]
	at := strings.LastIndex(rest[:strings.IndexAny(rest+"/", "/")], "@")
	colon := strings.Index(rest, ":")
	if at < 0 || colon < 0 || colon > at {
		return gitSecret{}, false
	}
	s := gitSecret{password: p, stripped: repo[:i+3] + rest[:colon] + rest[at:], forms: []string{p}}
	if raw := rest[colon+1 : at]; raw != p {
		s.forms = append(s.forms, raw)
	}
	return s, true
}

// gitConfigEscape quotes s for a git configuration file: a value (in
// double quotes, with \\, \", \n and \t) or a subsection name.
func gitConfigEscape(s string, value bool) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	if value {
		r = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
		return `"` + r.Replace(s) + `"`
	}
	return r.Replace(s)
}

// pyOctal is what Python's int(s, 8) reads.
var pyOctal = regexp.MustCompile(`^[ \t\n\r\f\v]*([+-]?)(0[oO]_?)?([0-7]+(_[0-7]+)*)[ \t\n\r\f\v]*$`)

// gitUmask reads the umask parameter as ansible-core's git does: a
// string of an octal number. It returns the umask in octal, or the
// failure (message and details) that the script reports in its turn.
func gitUmask(a tasks.Values) (umask, msg, details string) {
	if !a.Has("umask") {
		return "", "", ""
	}
	s, ok := a["umask"].(string)
	if !ok {
		return "", "umask must be defined as a quoted octal integer", ""
	}
	m := pyOctal.FindStringSubmatch(s)
	if m == nil {
		return "", "umask must be an octal integer", "invalid literal for int() with base 8: " + shared.PyRepr(s)
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(m[3], "_", ""), 8, 64)
	if err != nil || m[1] == "-" {
		return "", "umask must be an octal integer", "invalid literal for int() with base 8: " + shared.PyRepr(s)
	}
	return fmt.Sprintf("%04o", n&0o777), "", ""
}
