package shared

import (
	"bytes"
	"context"
	"crypto/sha1"
	_ "embed"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
)

// The text-editing modules (lineinfile, replace, blockinfile, ini_file)
// read the file in one round trip, compute the edit in Go, and, only when
// something changes, write it back in a second with copy's script: the new
// content travels on stdin to a temporary file beside the destination, is
// validated, the old file is backed up when asked, and the temporary file
// takes the old file's mode and owner before it is renamed over it. A file
// left as it was costs one round trip.

// EditPath is the path parameter of the text-editing modules.
var EditPath = tasks.Param{Name: "path", Kind: tasks.Path, Required: true, Aliases: []string{"dest", "destfile", "name"}}

// FailWith is a failed result with msg and data (none when nil).
func FailWith(msg string, data map[string]any) (tasks.Result, error) {
	if data == nil {
		data = map[string]any{}
	}
	return tasks.Result{Failed: true, Msg: msg, Data: data}, nil
}

// FileAttrs are the mode, owner and group a task asks for ("" for none),
// and unsafe_writes: when the final rename fails (a file bind-mounted
// into a container, such as /etc/hosts), write the content in place.
type FileAttrs struct {
	Mode, Owner, Group string
	Unsafe             bool
	// UnsafeEnv: unsafe_writes was not given, so ANSIBLE_UNSAFE_WRITES in
	// the task's environment decides (CopyJob.UnsafeEnv).
	UnsafeEnv bool
	Extra     string // AttrAssign's lines: the SELinux context and chattr flags
}

// AttrsOf reads mode, owner, group and unsafe_writes from a module's
// decoded arguments a; raw are the arguments as given, which tell
// whether unsafe_writes was.
func AttrsOf(a tasks.Values, raw tasks.Args) (FileAttrs, error) {
	m, err := ModeArg(a["mode"])
	return FileAttrs{Mode: m, Owner: a.Str("owner"), Group: a.Str("group"), Unsafe: a.Bool("unsafe_writes"),
		UnsafeEnv: raw["unsafe_writes"] == nil, Extra: AttrAssign(a)}, err
}

// TextFile is a host file read for editing.
type TextFile struct {
	Path    string  // as the task named it
	Real    string  // symlinks resolved: where the new content is written
	Exists  bool    // a file (or a link to one) is there
	Content []byte  // the file's bytes when it exists
	Attrs   Verdict // what _t_attrs would change (it changes nothing here)
}

// ReadTextScript prints isdir=1, or real= (the resolved path), exists=1,
// the path's _t_info, the attribute changes _t_attrs would make, and the
// file's bytes after a "--content--" line.
//
//go:embed read_text.sh
var ReadTextScript string

// ReadText reads path on the host in one round trip. A failure the
// module should report (an unreadable file, a directory) is returned as
// fail.
func ReadText(ctx context.Context, env *tasks.Env, path string, fa FileAttrs) (f *TextFile, fail *tasks.Result, err error) {
	f, _, fail, err = readText(ctx, env, path, fa, nil)
	return f, fail, err
}

// LineWant is the line ReadTextUnless looks for, and how lineinfile
// finds the line it would replace: Find, a literal, found in each line
// as Where says ('s': the line begins with it, 'a': holds it anywhere,
// 'e': ends with it before its newline, 'x': is it), the last line
// found (the first with First); with Find empty, the last line that is
// Line less its trailing carriage returns. Line and Find hold no
// newline, carriage return or NUL.
type LineWant struct {
	Line, Find string
	Where      byte
	First      bool
}

// ReadTextUnless is ReadText for lineinfile's plainest edits: noop is
// true, and f holds no content, when the line w finds is w.Line and
// ends in a newline (so lineinfile would leave the file as it is) and
// the file has the attributes fa asks for. The host then decides
// without sending the file, and its script is final when it exits 0
// (transport.Cmd.Final): the tasks after it may be sent behind it.
func ReadTextUnless(ctx context.Context, env *tasks.Env, path string, fa FileAttrs, w LineWant) (f *TextFile, noop bool, fail *tasks.Result, err error) {
	return readText(ctx, env, path, fa, &w)
}

// readTextAgain is the exit status of ReadTextUnless's script when the
// file is read (or missing, or a directory): not 0, which says no-op.
const readTextAgain = 10

func readText(ctx context.Context, env *tasks.Env, path string, fa FileAttrs, want *LineWant) (f *TextFile, noop bool, fail *tasks.Result, err error) {
	script := fmt.Sprintf("p=%s\nmode=%s\nowner=%s\ngroup=%s\n%s",
		ShPath(path), Q(fa.Mode), Q(fa.Owner), Q(fa.Group), fa.Extra)
	if want != nil {
		where, first := "", ""
		if want.Find != "" {
			where = string(want.Where)
		}
		if want.First {
			first = "1"
		}
		script += fmt.Sprintf("_t_want=%s\n_t_find=%s\n_t_where=%s\n_t_first=%s\n_t_nl='\n'\n_t_cr=%s\n_t_readrc=%d\n",
			Q(want.Line), Q(want.Find), Q(where), first, Q("\r"), readTextAgain)
	}
	// Direct: the script starts stat, readlink, awk and cat, none of
	// which outlives it, so its answer needs no copy through a file.
	l := Lib{Pieces: StdLib, Script: script + ReadTextScript}
	cmd := l.Cmd(nil)
	if want != nil {
		// Its first look is the path's stat, and it changes nothing:
		// a run of them (and of copies, templates and files) shares one
		// stat. The lines before the file's bytes are a few of text.
		l.Stat, l.Unchanged = path, "noop=1"
		cmd = l.Final(nil)
		cmd.LinesUntil = "--content--"
	}
	cmd.Direct = true
	out, err := env.Conn.Run(ctx, cmd)
	if err != nil {
		return nil, false, nil, err
	}
	v := ParseVerdict(BeforeMarker(out.Stdout))
	failed := func(msg string, data map[string]any) (*TextFile, bool, *tasks.Result, error) {
		r, _ := FailWith(msg, data)
		return nil, false, &r, nil
	}
	again := 0
	if want != nil {
		again = readTextAgain
	}
	switch {
	case v["failed"] == "1":
		return failed(strings.TrimSpace(v["msg"]), nil)
	case want != nil && out.ExitCode == 0 && v["noop"] == "1":
		f = &TextFile{Path: path, Real: v["real"], Exists: true, Attrs: v}
		return f, true, nil, nil
	case out.ExitCode != again:
		return failed(ScriptError(out), nil)
	case v["isdir"] == "1":
		return failed(fmt.Sprintf("Path %s is a directory !", path), map[string]any{"rc": 256})
	}
	f = &TextFile{Path: path, Real: v["real"], Exists: v["exists"] == "1", Attrs: v}
	if f.Real == "" {
		f.Real = path
	}
	if f.Exists {
		c, _ := Section(out.Stdout, "content", "")
		f.Content = []byte(c)
	}
	return f, false, nil, nil
}

// AttrsChanged reports whether a verdict of _t_attrs shows a mode, owner,
// group, chattr flags or SELinux context that differs (or was changed).
func AttrsChanged(v Verdict) bool {
	return v["before_mode"] != "" || v["owner_changed"] == "1" || v["group_changed"] == "1" || v["attributes_changed"] == "1" ||
		v["secontext_changed"] == "1"
}

// WriteOpts say how writeText puts the new content in place.
type WriteOpts struct {
	Attrs    FileAttrs
	Backup   bool
	Validate string // a command with %s for the new file, or ""
	Mkdirs   bool   // create missing parent directories
}

// WriteText writes content to the file with copy's script (one round
// trip) and brings its attributes to what was asked; unchanged content is
// not rewritten. It returns the script's verdict (backup_file, the
// attribute changes) or, when the module should fail, msg.
func (f *TextFile) WriteText(ctx context.Context, env *tasks.Env, content []byte, o WriteOpts) (v Verdict, msg string, err error) {
	if o.Validate != "" && !strings.Contains(o.Validate, "%s") {
		return nil, "validate must contain %s: " + o.Validate, nil
	}
	sum := sha1.Sum(content)
	j := CopyJob{
		Dest: f.Real, Sum: hex.EncodeToString(sum[:]), Content: content,
		Mode: o.Attrs.Mode, Owner: o.Attrs.Owner, Group: o.Attrs.Group,
		Force: true, Backup: o.Backup, Validate: o.Validate, mkdirs: o.Mkdirs,
		Guard: true, Unsafe: o.Attrs.Unsafe, UnsafeEnv: o.Attrs.UnsafeEnv, Se: o.Attrs.Extra,
	}
	if f.Exists {
		read := sha1.Sum(f.Content)
		j.Expect = hex.EncodeToString(read[:])
	}
	out, err := Run(ctx, env, j.Script("-", "", ""), bytes.NewReader(content))
	if err != nil {
		return nil, "", err
	}
	v = ParseVerdict(BeforeMarker(out.Stdout))
	switch {
	case v["failed"] == "1":
		return v, strings.TrimSpace(v["msg"]), nil
	case v["verdict"] == "invalid":
		stderr, _ := Section(out.Stdout, "stderr", "")
		return v, fmt.Sprintf("failed to validate: rc:%s error:%s", v["rc"], strings.TrimSuffix(stderr, "\n")), nil
	case v["verdict"] != "done":
		return v, ScriptError(out), nil
	}
	return v, "", nil
}

// FinishEdit writes after (when changed and not in check mode), adds the
// attribute changes and builds the result every text module returns:
// changed, msg, the backup file under backupKey and the diff list.
func FinishEdit(ctx context.Context, env *tasks.Env, res tasks.Result, f *TextFile, w WriteOpts,
	after []byte, changed bool, msg string, data map[string]any, backupKey string) (tasks.Result, error) {
	if !changed {
		msg = ""
	}
	header := f.Path + " (content)"
	cd := ContentDiff(env, header, f.Content, after)
	backup := ""
	av := f.Attrs
	if !env.Check && (changed || AttrsChanged(f.Attrs)) {
		v, fail, err := f.WriteText(ctx, env, after, w)
		if err != nil {
			return tasks.Result{}, err
		}
		if fail != "" {
			return tasks.Result{Failed: true, Msg: fail, Data: FailDetails(v, map[string]any{}), Warnings: res.Warnings}, nil
		}
		backup, av = v["backup_file"], v
		if !w.Backup {
			backup = ""
		}
	}
	res.Data = data
	if backupKey == "backup" {
		data["backup"] = backup
	} else if backup != "" {
		data[backupKey] = backup
	}
	if env.Check && !f.Exists {
		res.Changed, res.Msg = changed, msg
		data["msg"], data["diff"] = msg, cd
		if env.Diff {
			res.Diff = RenderDiff(cd)
		}
		return res, nil
	}
	if AttrsChanged(av) {
		msg, changed = AttrMsg(msg), true
	}
	ad := attrDiffEntry(av, f.Path)
	res.Changed, res.Msg = changed, msg
	data["msg"], data["diff"] = msg, []any{cd, ad}
	if env.Diff && changed {
		res.Diff = RenderDiff(cd, ad)
	}
	return res, nil
}

// AttrMsg appends Ansible's note about changed attributes to msg.
func AttrMsg(msg string) string {
	if msg != "" {
		msg += " and "
	}
	return msg + "ownership, perms or SE linux context changed"
}

// ContentDiff is the content entry of a text module's diff: the old and
// new text when --diff asked for them, empty strings otherwise.
func ContentDiff(env *tasks.Env, header string, before, after []byte) map[string]any {
	d := map[string]any{"before": "", "after": "", "before_header": header, "after_header": header}
	if env.Diff {
		d["before"], d["after"] = string(before), string(after)
	}
	return d
}

// attrDiffEntry is the file-attributes entry of a text module's diff.
func attrDiffEntry(v Verdict, path string) map[string]any {
	d := map[string]any{}
	if AttrsChanged(v) {
		before, after := map[string]any{}, map[string]any{}
		AttrDiff(v, before, after)
		d["before"], d["after"] = before, after
	}
	d["before_header"], d["after_header"] = path+" (file attributes)", path+" (file attributes)"
	return d
}

// RenderDiff renders a module's diff entries as text for --diff: a unified
// diff for each content change and the old and new mode for a mode change.
func RenderDiff(entries ...map[string]any) string {
	var s strings.Builder
	for _, d := range entries {
		h, _ := d["before_header"].(string)
		switch b := d["before"].(type) {
		case string:
			a, _ := d["after"].(string)
			s.WriteString(UnifiedDiff(h, b, a))
		case map[string]any:
			a, _ := d["after"].(map[string]any)
			for _, k := range []string{"mode", "owner", "group"} {
				if bv, ok := b[k]; ok {
					fmt.Fprintf(&s, "--- before: %s\n+++ after: %s\n@@ %s @@\n-%v\n+%v\n", h, h, k, bv, a[k])
				}
			}
		}
	}
	return s.String()
}
