package files

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tender-sh/tender/internal/pyescape"
	"github.com/tender-sh/tender/internal/pyre"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// assembleModule concatenates the fragments of a directory into one file,
// as Ansible's assemble: in name order, a newline after a fragment that
// lacks one, the delimiter between fragments. With remote_src (the
// default) the fragments are on the host and one script assembles them
// into a temporary file beside dest and puts it in place with copy's
// script (a regexp costs one more round trip, to list the names first);
// with remote_src=false they are on the controller and the result goes
// through copy with content. Like Ansible's, it does not run in check mode.
type assembleModule struct{}

var _ tasks.Module = (*assembleModule)(nil)

var assembleArgs = &tasks.Spec{
	Module: "assemble",
	Params: append([]tasks.Param{
		{Name: "src", Kind: tasks.Path},
		{Name: "dest", Kind: tasks.Path},
		{Name: "delimiter"},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "remote_src", Kind: tasks.Bool, Default: true},
		{Name: "regexp"},
		{Name: "ignore_hidden", Kind: tasks.Bool, Default: false},
		{Name: "validate"},
		{Name: "follow", Kind: tasks.Bool, Default: false},
		{Name: "decrypt", Kind: tasks.Bool, Default: true},
	}, shared.AttrParams...),
}

// Run assembles.
func (assembleModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := assembleArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if env.Check {
		return tasks.Result{Skipped: true, Msg: "check mode is not supported for this task.", Data: map[string]any{}}, nil
	}
	if !a.Has("src") || !a.Has("dest") {
		return shared.FailWith("src and dest are required", nil)
	}
	var re *pyre.Regexp
	if a.Has("regexp") {
		if re, err = pyre.Compile(a.Str("regexp"), pyre.Options{}); err != nil {
			return shared.FailWith(fmt.Sprintf("Invalid Regexp (%v) in \"%s\"", err, a.Str("regexp")), nil)
		}
	}
	delim := []byte(nil)
	if d := a.Str("delimiter"); d != "" {
		delim = escapeDecode(d)
		if !bytes.HasSuffix(delim, []byte("\n")) {
			delim = append(delim, '\n')
		}
	}
	if v := a.Str("validate"); v != "" && !strings.Contains(v, "%s") {
		return shared.FailWith("validate must contain %s: "+v, nil)
	}
	if !a.Bool("remote_src") {
		return assembleLocal(ctx, env, a, args, re, delim)
	}
	return assembleRemote(ctx, env, a, args, re, delim)
}

// keepFragment is assemble's filter on a fragment's name.
// Its error is a search's past its bounds.
func keepFragment(name string, re *pyre.Regexp, ignoreHidden bool) (bool, error) {
	if ignoreHidden && strings.HasPrefix(name, ".") {
		return false, nil
	}
	if re == nil {
		return true, nil
	}
	m, err := re.Search(name)
	return m != nil, err
}

// assembleLocal assembles controller fragments and copies the result.
func assembleLocal(ctx context.Context, env *tasks.Env, a tasks.Values, args tasks.Args, re *pyre.Regexp, delim []byte) (tasks.Result, error) {
	src, err := env.FindFile("files", a.Str("src"))
	if err != nil {
		return shared.FailWith(err.Error(), nil)
	}
	if err := env.Sandbox.CheckRead(src); err != nil {
		return tasks.Result{}, err
	}
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		return shared.FailWith(fmt.Sprintf("Source (%s) is not a directory", src), nil)
	}
	ents, err := env.Sandbox.ReadDir(src)
	if err != nil {
		return shared.FailWith(err.Error(), nil)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	var out []byte
	first, addNL := true, false
	for _, n := range names {
		p := filepath.Join(src, n)
		keep, err := keepFragment(n, re, a.Bool("ignore_hidden"))
		if err != nil {
			return shared.FailWith(err.Error(), nil)
		}
		if !keep {
			continue
		}
		if err := env.Sandbox.CheckRead(p); err != nil {
			return tasks.Result{}, err
		}
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		b, err := env.Sandbox.ReadFile(p)
		if err != nil {
			return shared.FailWith(err.Error(), nil)
		}
		if addNL {
			out = append(out, '\n')
		}
		if !first {
			out = append(out, delim...)
		}
		out = append(out, b...)
		first, addNL = false, !bytes.HasSuffix(b, []byte("\n"))
	}
	cargs := tasks.Args{"content": string(out)}
	for k, v := range args {
		switch k {
		case "src", "remote_src", "regexp", "delimiter", "ignore_hidden", "decrypt":
		default:
			cargs[k] = v
		}
	}
	res, err := copyModule{}.Run(ctx, env, cargs)
	if err != nil || res.Failed {
		return res, err
	}
	// Ansible's assemble runs the copy module itself, changed or not: no
	// diff (without --diff), and an unchanged file still reports the
	// upload as src and its md5sum.
	if !env.Diff {
		delete(res.Data, "diff")
	}
	if !res.Changed {
		delete(res.Data, "path")
		delete(res.Data, "diff")
		res.Data["md5sum"], res.Data["src"] = shared.Md5hex(out), shared.StagingName(a.Str("dest"))
	}
	return res, nil
}

// assembleScript assembles the fragments named on its command line (with
// $listed; otherwise every name in $src) into a temporary file beside $dest,
// prints its md5 as asm_md5 and sets source, want and moved for
// copyScript, which follows it.
//
//go:embed assemble.sh
var assembleScript string

// assembleListScript lists the fragments directory (assemble_list.sh).
//
//go:embed assemble_list.sh
var assembleListScript string

// assembleRemote assembles host fragments in one round trip (two with a
// regexp: the names are listed first and filtered here).
func assembleRemote(ctx context.Context, env *tasks.Env, a tasks.Values, args tasks.Args, re *pyre.Regexp, delim []byte) (tasks.Result, error) {
	src, dest := a.Str("src"), a.Str("dest")
	fa, err := shared.AttrsOf(a, args)
	if err != nil {
		return shared.FailWith(err.Error(), nil)
	}
	names := []string{}
	if re != nil {
		out, err := shared.Run(ctx, env, "src="+shared.ShPath(src)+"\n"+assembleListScript, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		for _, n := range strings.Split(strings.TrimSuffix(string(out.Stdout), "\n"), "\n") {
			if n == "" {
				continue
			}
			keep, err := keepFragment(n, re, false)
			if err != nil {
				return shared.FailWith(err.Error(), nil)
			}
			if keep {
				names = append(names, n)
			}
		}
	}
	j := shared.CopyJob{Dest: dest, Mode: fa.Mode, Owner: fa.Owner, Group: fa.Group, Force: true,
		Backup: a.Bool("backup"), Validate: a.Str("validate"), Unsafe: fa.Unsafe, UnsafeEnv: fa.UnsafeEnv}
	var s strings.Builder
	s.WriteString(shared.SetArgs(names))
	fmt.Fprintf(&s, "listed=%s\nsrc=%s\ndelim=%s\nhidden=%s\n%s", shared.BoolFlag(re != nil), shared.ShPath(src), shared.Q(string(delim)),
		shared.BoolFlag(a.Bool("ignore_hidden")), assembleScript)
	script := j.Script("", "", "")
	// copyScript's own settings come first; the assembly sets source,
	// want and moved just before copyScript runs.
	i := strings.Index(script, shared.CopyScript)
	script = script[:i] + s.String() + shared.CopyScript
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
	data := map[string]any{"src": src, "dest": dest}
	switch {
	case v["failed"] == "1":
		return shared.FailWith(strings.TrimSpace(v["msg"]), nil)
	case v["verdict"] == "invalid":
		stderr, _ := shared.Section(out.Stdout, "stderr", "")
		stderr = strings.TrimSuffix(stderr, "\n")
		return shared.FailWith(fmt.Sprintf("failed to validate: rc:%s error:%s", v["rc"], stderr), nil)
	case v["verdict"] != "done":
		return shared.FailWith(shared.ScriptError(out), nil)
	}
	data["checksum"], data["md5sum"] = v["checksum"], v["asm_md5"]
	if a.Bool("backup") && v["backup_file"] != "" {
		data["backup_file"] = v["backup_file"]
	}
	if a.Has("validate") && v["content_changed"] == "1" {
		data["validation"] = map[string]any{"rc": 0, "stdout": "", "stderr": ""}
	}
	shared.InfoData(data, v, "")
	data["msg"] = "OK"
	return tasks.Result{Changed: v["changed"] == "1", Msg: "OK", Data: data}, nil
}

// escapeDecode undoes Python's backslash escapes in s, as
// codecs.escape_decode does for assemble's delimiter.
func escapeDecode(s string) []byte {
	var out []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			out = append(out, c)
			continue
		}
		if s[i+1] == '\n' {
			i++ // a backslash before a newline continues the line
			continue
		}
		// Bytes: \u and \U are not escapes, and a code point is a byte.
		r, n, kind, problem := pyescape.Decode(s[i+1:])
		if problem == "" && (kind == pyescape.Simple || kind == pyescape.Octal || kind == pyescape.Hex && s[i+1] == 'x') {
			out = append(out, byte(r))
			i += n
			continue
		}
		out = append(out, '\\', s[i+1])
		i++
	}
	return out
}

func (assembleModule) Spec() *tasks.Spec { return assembleArgs }
