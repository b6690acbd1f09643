package packages

import (
	"bytes"
	"context"
	"crypto/sha1"
	_ "embed"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// yumRepositoryModule adds or removes a repository in a .repo file of
// yum's and dnf's repository directory, as ansible-core 2.14's
// yum_repository: the file is read and rewritten as Python's
// configparser does, the options the task gives (and only those) make
// the section, the result's diff is the module's own sorted dump of the
// file. One round trip reads the file; a second writes it (or removes
// it when its last repository goes), only when it or its mode, owner
// or group changes.
type yumRepositoryModule struct{}

var _ tasks.Module = yumRepositoryModule{}

// yumRepoOptions are the parameters written into the repository's
// section: yum_repository's allowed_params ("name" is description's
// value).
var yumRepoOptions = []string{
	"async", "bandwidth", "baseurl", "cost", "deltarpm_metadata_percentage", "deltarpm_percentage",
	"enabled", "enablegroups", "exclude", "failovermethod", "gpgcakey", "gpgcheck", "gpgkey",
	"module_hotfixes", "http_caching", "include", "includepkgs", "ip_resolve", "keepalive", "keepcache",
	"metadata_expire", "metadata_expire_filter", "metalink", "mirrorlist", "mirrorlist_expire", "name",
	"password", "priority", "protect", "proxy", "proxy_password", "proxy_username", "repo_gpgcheck",
	"retries", "s3_enabled", "skip_if_unavailable", "sslcacert", "ssl_check_cert_permissions",
	"sslclientcert", "sslclientkey", "sslverify", "throttle", "timeout", "ui_repoid_vars", "username",
}

var yumRepositoryArgs = &tasks.Spec{
	Module: "yum_repository",
	Params: append([]tasks.Param{
		{Name: "async", Kind: tasks.Bool},
		{Name: "bandwidth"},
		{Name: "baseurl", Kind: tasks.List},
		{Name: "cost"},
		{Name: "deltarpm_metadata_percentage"},
		{Name: "deltarpm_percentage"},
		{Name: "description"},
		{Name: "enabled", Kind: tasks.Bool},
		{Name: "enablegroups", Kind: tasks.Bool},
		{Name: "exclude", Kind: tasks.List},
		{Name: "failovermethod", Choices: []string{"roundrobin", "priority"}},
		{Name: "file"},
		{Name: "gpgcakey"},
		{Name: "gpgcheck", Kind: tasks.Bool},
		{Name: "gpgkey", Kind: tasks.List},
		{Name: "module_hotfixes", Kind: tasks.Bool},
		{Name: "http_caching", Choices: []string{"all", "packages", "none"}},
		{Name: "include"},
		{Name: "includepkgs", Kind: tasks.List},
		{Name: "ip_resolve", Choices: []string{"4", "6", "IPv4", "IPv6", "whatever"}},
		{Name: "keepalive", Kind: tasks.Bool},
		{Name: "keepcache", Choices: []string{"0", "1"}},
		{Name: "metadata_expire"},
		{Name: "metadata_expire_filter", Choices: []string{"never", "read-only:past", "read-only:present", "read-only:future"}},
		{Name: "metalink"},
		{Name: "mirrorlist"},
		{Name: "mirrorlist_expire"},
		{Name: "name", Required: true},
		{Name: "params", Kind: tasks.Dict},
		{Name: "password"},
		{Name: "priority"},
		{Name: "protect", Kind: tasks.Bool},
		{Name: "proxy"},
		{Name: "proxy_password"},
		{Name: "proxy_username"},
		{Name: "repo_gpgcheck", Kind: tasks.Bool},
		{Name: "reposdir", Kind: tasks.Path, Default: "/etc/yum.repos.d"},
		{Name: "retries"},
		{Name: "s3_enabled", Kind: tasks.Bool},
		{Name: "skip_if_unavailable", Kind: tasks.Bool},
		{Name: "sslcacert", Aliases: []string{"ca_cert"}},
		{Name: "ssl_check_cert_permissions", Kind: tasks.Bool},
		{Name: "sslclientcert", Aliases: []string{"client_cert"}},
		{Name: "sslclientkey", Aliases: []string{"client_key"}},
		{Name: "sslverify", Kind: tasks.Bool, Aliases: []string{"validate_certs"}},
		{Name: "state", Default: "present", Choices: []string{"present", "absent"}},
		{Name: "throttle"},
		{Name: "timeout"},
		{Name: "ui_repoid_vars"},
		{Name: "username"},
	}, shared.AttrParams...),
}

// Spec is yum_repository's argument specification.
func (yumRepositoryModule) Spec() *tasks.Spec { return yumRepositoryArgs }

// yumRepoReadScript fails when $reposdir is no directory, resolves the
// repo file's path ($dest, under $reposdir unless absolute) and prints
// it with what readTextScript prints of it (its real path, attributes,
// the changes _t_attrs would make and its bytes).
//
//go:embed yum_repo_read.sh
var yumRepoReadScript string

// yumRepoRemoveScript removes a repository file left empty
// (yum_repo_remove.sh).
//
//go:embed yum_repo_remove.sh
var yumRepoRemoveScript string

// yumRepoJob is one yum_repository task: its decoded arguments and,
// once the repo file is read, the file and its contents before and
// after.
type yumRepoJob struct {
	a             tasks.Values
	state, repoid string
	file          string // the file's name or path, as given
	fa            shared.FileAttrs
	se            string // the SELinux context's assignments
	check, diff   bool
	// Planned from the file read: the file, the verdict of the read
	// script, the repositories after the change and the dumps before and
	// after.
	f             *shared.TextFile
	v             shared.Verdict
	ini           *repoINI
	before, after string
	changed       bool
}

// Run adds or removes the repository.
//
// attributes (chattr flags) is refused: tender sets a file's mode,
// owner, group and SELinux context, not its ext2 attributes. The file
// is written through a temporary file and a rename (in place when the
// rename fails, as Ansible's in-place write would succeed there).
func (yumRepositoryModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := yumRepositoryArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, bad, err := decodeYumRepo(a, env)
	if err != nil || bad != nil {
		return yumRepoEnd(bad, err)
	}
	out, err := shared.Run(ctx, env, j.readScript(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	if bad := j.read(out); bad != nil {
		return *bad, nil
	}
	if bad := j.plan(); bad != nil {
		return *bad, nil
	}
	if bad, err := j.apply(ctx, env); err != nil || bad != nil {
		return yumRepoEnd(bad, err)
	}
	return j.result(), nil
}

// yumRepoEnd is what Run returns when it stops early: the error, else
// the failed result bad.
func yumRepoEnd(bad *tasks.Result, err error) (tasks.Result, error) {
	if err != nil {
		return tasks.Result{}, err
	}
	return *bad, nil
}

// decodeYumRepo checks yum_repository's arguments and makes the job. A
// non-nil result is the failure Ansible reports for bad arguments; the
// error refuses what tender does not do.
func decodeYumRepo(a tasks.Values, env *tasks.Env) (*yumRepoJob, *tasks.Result, error) {
	if a.Str("attributes") != "" {
		return nil, nil, fmt.Errorf("attributes is not supported by tender's yum_repository: it sets mode, owner, group and SELinux context, not chattr attributes")
	}
	bad := func(msg string) (*yumRepoJob, *tasks.Result, error) {
		r := shared.Fail(msg)
		return nil, &r, nil
	}
	if len(a.Dict("params")) > 0 {
		return bad("The params option to yum_repository was removed in Ansible 2.5 since it circumvents Ansible's option handling")
	}
	j := &yumRepoJob{a: a, state: a.Str("state"), repoid: a.Str("name"), file: a.Str("file"), se: shared.AttrAssign(a),
		check: env.Check, diff: env.Diff}
	if j.state == "present" {
		if !a.Has("baseurl") && !a.Has("metalink") && !a.Has("mirrorlist") {
			return bad("Parameter 'baseurl', 'metalink' or 'mirrorlist' is required.")
		}
		if !a.Has("description") {
			return bad("Parameter 'description' is required.")
		}
	}
	if !a.Has("file") {
		j.file = j.repoid
	}
	fa, err := shared.AttrsOf(a, nil) // writes unsafely anyway (Unsafe below)
	if err != nil {
		return bad(err.Error())
	}
	j.fa = fa
	return j, nil, nil
}

// readScript resolves the repo file's path and reads it, with the
// attributes asked for assigned before yum_repo_read.sh.
func (j *yumRepoJob) readScript() string {
	return fmt.Sprintf("%s%s%sreposdir=%s\nfile=%s\nmode=%s\nowner=%s\ngroup=%s\n%s%s", shared.ShFuncs, shared.AttrFuncs, j.se,
		shared.ShPath(j.a.Str("reposdir")), shared.Q(j.file), shared.Q(j.fa.Mode), shared.Q(j.fa.Owner), shared.Q(j.fa.Group), yumRepoReadScript, shared.ReadTextScript)
}

// read takes the repo file from the read script's output, or returns
// the failure when the script could not read it.
func (j *yumRepoJob) read(out transport.Result) *tasks.Result {
	v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
	var r tasks.Result
	switch {
	case v["noreposdir"] == "1":
		r = shared.Fail(fmt.Sprintf("Repo directory '%s' does not exist.", j.a.Str("reposdir")))
	case v["failed"] == "1":
		r = shared.Fail(strings.TrimSpace(v["msg"]))
	case v["dest"] == "" || out.ExitCode != 0:
		r = shared.Fail(shared.ScriptError(out))
	default:
		j.v = v
		j.f = &shared.TextFile{Path: v["dest"], Real: v["real"], Exists: v["exists"] == "1", Attrs: v}
		if j.f.Real == "" {
			j.f.Real = v["dest"]
		}
		if j.f.Exists {
			c, _ := shared.Section(out.Stdout, "content", "")
			j.f.Content = []byte(c)
		}
		return nil
	}
	return &r
}

// plan parses the file read, replaces the repository's section (or
// removes it) and dumps the file before and after, or returns the
// failure when the file cannot be read or is a directory to change.
func (j *yumRepoJob) plan() *tasks.Result {
	dest := j.f.Path
	ini := &repoINI{defaults: &repoSection{name: "DEFAULT", vals: map[string]string{}}}
	if j.f.Exists && j.v["isdir"] != "1" {
		var err error
		if ini, err = parseRepoINI(string(j.f.Content), dest); err != nil {
			r := shared.Fail(fmt.Sprintf("Problems reading the repo file %s: %v", dest, err))
			return &r
		}
	}
	j.before = ini.dump()
	ini.remove(j.repoid)
	if j.state == "present" {
		s := &repoSection{name: j.repoid, vals: map[string]string{}}
		for _, k := range yumRepoSorted() {
			if val, ok := yumRepoValue(j.a, k); ok {
				s.set(k, val)
			}
		}
		ini.sections = append(ini.sections, s)
	}
	j.ini, j.after = ini, ini.dump()
	j.changed = j.before != j.after
	if j.v["isdir"] == "1" && j.changed {
		r := shared.Fail(fmt.Sprintf("Problems handling file %s.", dest))
		return &r
	}
	return nil
}

// apply removes the file left without repositories, or writes it and
// sets its attributes when they or its contents change, noting in
// changed what the attributes' check found; nothing in check mode. It
// returns the failure when the file could not be removed or written.
func (j *yumRepoJob) apply(ctx context.Context, env *tasks.Env) (*tasks.Result, error) {
	f := j.f
	if !j.check && j.changed && len(j.ini.sections) == 0 {
		rm, err := shared.Run(ctx, env, shared.ShAssign([][2]string{{"f", f.Path}})+yumRepoRemoveScript, nil)
		if err != nil {
			return nil, err
		}
		if shared.ParseVerdict(rm.Stdout)["removed"] != "1" {
			r := shared.Fail(fmt.Sprintf("Cannot remove empty repo file %s.", f.Path))
			return &r, nil
		}
	} else if !j.check && (j.changed || (f.Exists && yumRepoAttrsDiffer(j.v))) {
		content := f.Content
		if j.changed {
			content = []byte(j.ini.write())
		}
		wv, msg, err := yumRepoWrite(ctx, env, f, content, j.fa, j.se)
		if err != nil {
			return nil, err
		}
		if msg != "" {
			r := shared.Fail(msg)
			return &r, nil
		}
		j.changed = j.changed || yumRepoAttrsDiffer(wv)
	} else if f.Exists {
		j.changed = j.changed || yumRepoAttrsDiffer(j.v)
	}
	return nil, nil
}

// result is yum_repository's result: the repository, its state and the
// diff of the file's dumps, passwords hidden.
func (j *yumRepoJob) result() tasks.Result {
	dest := j.f.Path
	res := tasks.Result{Data: map[string]any{"repo": j.repoid, "state": j.state}}
	d := map[string]any{"before_header": dest, "before": yumRepoMask(j.a, j.before), "after_header": dest, "after": yumRepoMask(j.a, j.after)}
	res.Data["diff"] = d
	res.Changed = j.changed
	if j.diff && j.changed {
		res.Diff = shared.UnifiedDiff(dest, d["before"].(string), d["after"].(string))
	}
	return res
}

// yumRepoSorted is yumRepoOptions in the order Ansible sets them:
// sorted by parameter name.
func yumRepoSorted() []string {
	s := append([]string(nil), yumRepoOptions...)
	sort.Strings(s)
	return s
}

// yumRepoValue is the text yum_repository writes for option k, and
// whether the task gave it: lists joined (baseurl and gpgkey by
// newlines, exclude and includepkgs by spaces), booleans as 1 or 0,
// name from description.
func yumRepoValue(a tasks.Values, k string) (string, bool) {
	p := k
	if k == "name" {
		p = "description"
	}
	val, ok := a[p]
	if !ok || val == nil {
		return "", false
	}
	switch x := val.(type) {
	case bool:
		if x {
			return "1", true
		}
		return "0", true
	case []any:
		sep := " "
		if k == "baseurl" || k == "gpgkey" {
			sep = "\n"
		}
		return strings.Join(a.Strings(p), sep), true
	case int:
		return strconv.Itoa(x), true
	}
	return tasks.ToText(val), true
}

// yumRepoMask hides the password options' values in text, as Ansible
// hides no_log values in what a module returns.
func yumRepoMask(a tasks.Values, text string) string {
	for _, k := range []string{"password", "proxy_password"} {
		if s := a.Str(k); s != "" {
			text = strings.ReplaceAll(text, s, "********")
		}
	}
	return text
}

// yumRepoAttrsDiffer reports whether a verdict of _t_attrs shows a mode,
// owner, group or SELinux context that differs (or was changed).
func yumRepoAttrsDiffer(v shared.Verdict) bool {
	return shared.AttrsChanged(v)
}

// yumRepoWrite writes content to the repo file with copy's script,
// unless the file changed since it was read, and brings its mode, owner,
// group and SELinux context to what was asked. It returns the script's
// verdict or, when the module should fail, msg.
func yumRepoWrite(ctx context.Context, env *tasks.Env, f *shared.TextFile, content []byte, fa shared.FileAttrs, se string) (shared.Verdict, string, error) {
	sum := sha1.Sum(content)
	j := shared.CopyJob{
		Dest: f.Real, Sum: hex.EncodeToString(sum[:]), Content: content,
		Mode: fa.Mode, Owner: fa.Owner, Group: fa.Group, Force: true, Guard: true, Unsafe: true, Se: se,
	}
	if f.Exists {
		read := sha1.Sum(f.Content)
		j.Expect = hex.EncodeToString(read[:])
	}
	out, err := shared.Run(ctx, env, j.Script("-", "", ""), bytes.NewReader(content))
	if err != nil {
		return nil, "", err
	}
	v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
	switch {
	case v["failed"] == "1":
		return v, strings.TrimSpace(v["msg"]), nil
	case v["verdict"] != "done":
		return v, fmt.Sprintf("Problems handling file %s.", f.Path), nil
	}
	return v, "", nil
}
