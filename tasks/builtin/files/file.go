package files

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// fileModule sets a path's state (file, directory, absent, touch, link,
// hard) and attributes in one round trip (see fileScript).
type fileModule struct{}

var _ tasks.Module = (*fileModule)(nil)

var fileArgs = &tasks.Spec{
	Module: "file",
	Params: append([]tasks.Param{
		{Name: "path", Kind: tasks.Path, Required: true, Aliases: []string{"dest", "name"}},
		{Name: "state", Choices: []string{"absent", "directory", "file", "hard", "link", "touch"}},
		{Name: "src", Kind: tasks.Path},
		{Name: "recurse", Kind: tasks.Bool, Default: false},
		{Name: "force", Kind: tasks.Bool, Default: false},
		{Name: "follow", Kind: tasks.Bool, Default: true},
		{Name: "access_time"},
		{Name: "access_time_format", Default: "%Y%m%d%H%M.%S"},
		{Name: "modification_time"},
		{Name: "modification_time_format", Default: "%Y%m%d%H%M.%S"},
		{Name: "_original_basename"},
		{Name: "_diff_peek"},
	}, shared.AttrParams...),
}

// fileJob is one file task: the path, the state aimed at ("" for the
// current one) and the script's other inputs, as it reads them.
type fileJob struct {
	path, state, src, mode string
	atime, mtime           string // "now", "preserve" or a touch -t stamp
}

// Run brings the path to its state: the job decoded, one round trip runs
// file.sh, and its verdict becomes the result.
func (fileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := fileArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, fail := decodeFile(a)
	if fail != nil {
		// As Ansible's fail_json, the attributes of the path, if it
		// exists, join the failure.
		out, err := shared.Run(ctx, env, shared.ShFuncs+shared.AttrFuncs+shared.ShAssign([][2]string{{"pi", j.path}})+shared.PathInfoScript, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		shared.PathInfo(fail.Data, shared.ParseVerdict(out.Stdout))
		return *fail, nil
	}
	out, err := shared.RunVerdictLib(ctx, env, j.script(env, a), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	return fileResult(env, a, v, out.Stdout, shared.ScriptError(out))
}

// decodeFile builds the job the arguments ask for (a link without src
// keeps its target: src is set to ""), or the failure file gives for src
// or recurse with another state, a hard link without src, or a mode or
// time it cannot read.
func decodeFile(a tasks.Values) (fileJob, *tasks.Result) {
	j := fileJob{path: a.Str("path"), state: a.Str("state")}
	failed := func(msg string) (fileJob, *tasks.Result) {
		return j, &tasks.Result{Failed: true, Msg: msg, Data: map[string]any{"path": j.path}}
	}
	if a.Has("src") && j.state != "link" && j.state != "hard" {
		return failed("src option requires state to be 'link' or 'hard'")
	}
	if a.Bool("recurse") && j.state != "directory" && j.state != "" {
		return failed("recurse option requires state to be 'directory'")
	}
	if j.state == "link" && !a.Has("src") {
		// An existing link is kept as it is; a new one needs src.
		a["src"] = ""
	}
	if j.state == "hard" && !a.Has("src") {
		return failed("src is required for creating new hardlinks")
	}
	j.src = a.Str("src")
	var err error
	if j.mode, err = shared.ModeArg(a["mode"]); err != nil {
		return failed(err.Error())
	}
	if j.atime, err = timeArg(a.Str("access_time"), a.Str("access_time_format"), j.state); err != nil {
		return failed(err.Error())
	}
	if j.mtime, err = timeArg(a.Str("modification_time"), a.Str("modification_time_format"), j.state); err != nil {
		return failed(err.Error())
	}
	return j, nil
}

// script runs file.sh with the job's variables (and the owner, group,
// recurse, force, follow and SELinux context of a) set, in check mode
// when env is.
func (j fileJob) script(env *tasks.Env, a tasks.Values) shared.Lib {
	var s strings.Builder
	for _, kv := range [][2]string{
		{"_t_check", shared.BoolFlag(env.Check)}, {"path", j.path}, {"state", j.state}, {"src", j.src},
		{"mode", j.mode}, {"owner", a.Str("owner")}, {"group", a.Str("group")},
		{"recurse", shared.BoolFlag(a.Bool("recurse"))}, {"force", shared.BoolFlag(a.Bool("force"))},
		{"follow", shared.BoolFlag(a.Bool("follow"))}, {"atime", j.atime}, {"mtime", j.mtime},
	} {
		val := shared.Q(kv[1])
		if kv[0] == "path" {
			val = shared.ShPath(kv[1])
		}
		fmt.Fprintf(&s, "%s=%s\n", kv[0], val)
	}
	s.WriteString(shared.AttrAssign(a))
	s.WriteString("_t_file_main\n")
	// _t_state looks at path first (a directory's first stat is
	// _t_attrs', before anything changes when it exists).
	return shared.Lib{Pieces: fileLib, Script: s.String(), Stat: j.path}
}

// fileLib is file.sh and what it needs, as Lib pieces.
var fileLib = []string{shared.ShFuncs, shared.AttrFuncs, shared.MainFunc("_t_file_main", fileScript)}

// timeArg maps access_time/modification_time to the script's form:
// "now", "preserve", or a touch -t stamp ([[CC]YY]MMDDhhmm[.ss], which is
// Ansible's default format) converted from the given strftime format.
func timeArg(t, format, state string) (string, error) {
	switch t {
	case "":
		if state == "touch" {
			return "now", nil
		}
		return "preserve", nil
	case "now", "preserve":
		return t, nil
	}
	tm, err := expr.Strptime(t, format)
	if err != nil {
		return "", fmt.Errorf("Error while obtaining timestamp for time %s using format %s: %s", t, format, expr.Message(err))
	}
	// The stamp is wall-clock time: the host's touch reads it in the
	// host's zone, as the module's time.mktime does there.
	return tm.Format("200601021504.05"), nil
}

// expandedPath is the path parameter as the host expanded it (a leading
// ~, $VAR), which Ansible's results give, as the script reports it.
func expandedPath(a tasks.Values, v shared.Verdict) string {
	if p, ok := v["expanded"]; ok {
		return p
	}
	return a.Str("path")
}

// fileResult turns the script's verdict v (stdout its output, errMsg the
// message for a script that did not finish) into the result: a failure,
// or the state reached with its data and before/after diff.
func fileResult(env *tasks.Env, a tasks.Values, v shared.Verdict, stdout []byte, errMsg string) (tasks.Result, error) {
	p, src := expandedPath(a, v), a.Str("src")
	res := tasks.Result{Data: map[string]any{}, Changed: v["changed"] == "1"}
	res.Warnings = appendWarnings(res.Warnings, v, "warn_user", "warn_group")
	if v["failed"] == "1" || v["verdict"] == "failed" {
		return fileFailure(res, v, p, src), nil
	}
	if v["state"] == "" || v["verdict"] != "done" {
		res.Failed, res.Msg, res.Changed = true, errMsg, false
		return res, nil
	}
	res.Warnings = appendWarnings(res.Warnings, v, "warning")
	before, after := fileDiff(a, v, stdout)
	if !fileData(env, &res, v, p, src, map[string]any{"before": before, "after": after}) {
		return res, nil
	}
	if env.Diff && res.Changed {
		b, _ := json.MarshalIndent(before, "", "    ")
		af, _ := json.MarshalIndent(after, "", "    ")
		res.Diff = shared.UnifiedDiff(p, string(b)+"\n", string(af)+"\n")
	}
	return res, nil
}

// appendWarnings appends to ws the verdict's non-empty values of keys.
func appendWarnings(ws []string, v shared.Verdict, keys ...string) []string {
	for _, k := range keys {
		if w := v[k]; w != "" {
			ws = append(ws, w)
		}
	}
	return ws
}

// fileFailure is res failed with the script's message, and with the
// paths Ansible names beside that message (path p, src), the path the
// script names as failing, and the path's attributes.
func fileFailure(res tasks.Result, v shared.Verdict, p, src string) tasks.Result {
	data := shared.FailDetails(v, res.Data)
	res.Failed, res.Msg, res.Changed = true, strings.TrimSpace(v["msg"]), false
	if e := v["oserr"]; e != "" {
		// the OSError Ansible's os.mkdir raised, of the path as bytes
		res.Msg += ": " + shared.OSErrorBytes(e, v["oserrpath"])
	}
	switch msg := res.Msg; {
	case strings.HasPrefix(msg, "Cannot link") || msg == "src does not exist":
		data["dest"], data["src"] = p, src
	case strings.HasPrefix(msg, "src file does not exist"):
		data["path"], data["src"] = p, src
	case strings.HasSuffix(msg, "cannot continue"):
		data["path"], data["state"] = p, v["prev"]
	default:
		data["path"] = p
	}
	if fp := v["failpath"]; fp != "" {
		data["path"] = fp
	}
	shared.InfoData(data, v, "")
	return res
}

// fileDiff is the before and after of the path the verdict v reports:
// its state, a removed directory's content (listed in stdout), its
// attributes, a link's src and the times the task set.
func fileDiff(a tasks.Values, v shared.Verdict, stdout []byte) (before, after map[string]any) {
	p, prev, state := expandedPath(a, v), v["prev"], v["state"]
	before, after = map[string]any{"path": p}, map[string]any{"path": p}
	if prev != state {
		before["state"], after["state"] = prev, state
	}
	if state == "absent" && prev == "directory" {
		before["path_content"] = pathContent(stdout, p)
	}
	shared.AttrDiff(v, before, after)
	if v["before_src"] != "" {
		before["src"], after["src"] = v["before_src"], a.Str("src")
	}
	// access_time/modification_time set on a state other than touch: the
	// script reports what it changed; touch leaves out a preserved time.
	for _, k := range []string{"atime", "mtime"} {
		if state == "touch" && ((k == "atime" && a.Str("access_time") == "preserve") || (k == "mtime" && a.Str("modification_time") == "preserve")) {
			continue
		}
		if t, err := strconv.ParseFloat(v["before_"+k], 64); err == nil {
			before[k] = t
		}
		if t, err := strconv.ParseFloat(v["after_"+k], 64); err == nil {
			after[k] = t
		}
	}
	return before, after
}

// fileData puts into res's data what Ansible's result for the state
// reached holds: the path (as dest for touch and links), the diff, a
// link's src and the path's attributes. It says whether the result
// shows its diff: a touch in check mode of an absent path does not.
func fileData(env *tasks.Env, res *tasks.Result, v shared.Verdict, p, src string, diff map[string]any) bool {
	data := res.Data
	switch v["state"] {
	case "absent":
		data["path"], data["state"] = p, "absent"
		if res.Changed {
			data["diff"] = diff
		}
		shared.InfoData(data, v, "") // in check mode the path is still there
	case "touch":
		data["dest"] = p
		if env.Check && v["prev"] == "absent" {
			return false
		}
		data["diff"] = diff
		shared.InfoData(data, v, "")
	case "link", "hard":
		data["dest"], data["diff"], data["src"] = p, diff, src
		if src == "" {
			data["src"] = v["target"]
		}
		shared.InfoData(data, v, "")
	default:
		data["path"], data["diff"] = p, diff
		shared.InfoData(data, v, "")
	}
	return true
}

// pathContent lists what a removed directory held (the subdir= and
// subfile= lines of the script, in find's order), in the order Python's
// os.walk gives, as Ansible's diff shows it: each directory's
// subdirectories and files, then its subdirectories' in turn.
func pathContent(out []byte, root string) map[string]any {
	children := map[string][]string{}
	isDir := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		p, dir := strings.CutPrefix(l, "subdir=")
		if !dir {
			var ok bool
			if p, ok = strings.CutPrefix(l, "subfile="); !ok {
				continue
			}
		}
		isDir[p] = dir
		parent := p[:max(strings.LastIndex(p, "/"), 0)]
		children[parent] = append(children[parent], p)
	}
	dirs, files := []any{}, []any{}
	var walk func(d string)
	walk = func(d string) {
		var sub []string
		for _, c := range children[d] {
			if isDir[c] {
				dirs = append(dirs, c)
				sub = append(sub, c)
			} else {
				files = append(files, c)
			}
		}
		for _, c := range sub {
			walk(c)
		}
	}
	walk(strings.TrimSuffix(root, "/"))
	return map[string]any{"directories": dirs, "files": files}
}

func (fileModule) Spec() *tasks.Spec { return fileArgs }
