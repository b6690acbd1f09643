package builtin

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

// editPath is the path parameter of the text-editing modules.
var editPath = tasks.Param{Name: "path", Kind: tasks.Path, Required: true, Aliases: []string{"dest", "destfile", "name"}}

// failWith is a failed result with msg and data (none when nil).
func failWith(msg string, data map[string]any) (tasks.Result, error) {
	if data == nil {
		data = map[string]any{}
	}
	return tasks.Result{Failed: true, Msg: msg, Data: data}, nil
}

// fileAttrs are the mode, owner and group a task asks for ("" for none),
// and unsafe_writes: when the final rename fails (a file bind-mounted
// into a container, such as /etc/hosts), write the content in place.
type fileAttrs struct {
	mode, owner, group string
	unsafe             bool
}

func attrsOf(a tasks.Values) (fileAttrs, error) {
	m, err := modeArg(a["mode"])
	return fileAttrs{mode: m, owner: a.Str("owner"), group: a.Str("group"), unsafe: a.Bool("unsafe_writes")}, err
}

// textFile is a host file read for editing.
type textFile struct {
	path    string  // as the task named it
	real    string  // symlinks resolved: where the new content is written
	exists  bool    // a file (or a link to one) is there
	content []byte  // the file's bytes when it exists
	attrs   verdict // what _t_attrs would change (it changes nothing here)
}

// readTextScript prints isdir=1, or real= (the resolved path), exists=1,
// the path's _t_info, the attribute changes _t_attrs would make, and the
// file's bytes after a "--content--" line.
//
//go:embed read_text.sh
var readTextScript string

// readText reads path on the host in one round trip. A failure the
// module should report (an unreadable file, a directory) is returned as
// fail.
func readText(ctx context.Context, env *tasks.Env, path string, fa fileAttrs) (f *textFile, fail *tasks.Result, err error) {
	script := fmt.Sprintf("%s%sp=%s\nmode=%s\nowner=%s\ngroup=%s\n%s", shFuncs, attrFuncs,
		shPath(path), q(fa.mode), q(fa.owner), q(fa.group), readTextScript)
	out, err := run(ctx, env, script, nil)
	if err != nil {
		return nil, nil, err
	}
	v := parseVerdict(beforeMarker(out.Stdout))
	failed := func(msg string, data map[string]any) (*textFile, *tasks.Result, error) {
		r, _ := failWith(msg, data)
		return nil, &r, nil
	}
	switch {
	case v["failed"] == "1":
		return failed(strings.TrimSpace(v["msg"]), nil)
	case out.ExitCode != 0:
		return failed(scriptError(out), nil)
	case v["isdir"] == "1":
		return failed(fmt.Sprintf("Path %s is a directory !", path), map[string]any{"rc": 256})
	}
	f = &textFile{path: path, real: v["real"], exists: v["exists"] == "1", attrs: v}
	if f.real == "" {
		f.real = path
	}
	if f.exists {
		c, _ := section(out.Stdout, "content", "")
		f.content = []byte(c)
	}
	return f, nil, nil
}

// attrsChanged reports whether a verdict of _t_attrs shows a mode, owner
// or group that differs (or was changed).
func attrsChanged(v verdict) bool {
	return v["before_mode"] != "" || v["owner_changed"] == "1" || v["group_changed"] == "1"
}

// writeOpts say how writeText puts the new content in place.
type writeOpts struct {
	attrs    fileAttrs
	backup   bool
	validate string // a command with %s for the new file, or ""
	mkdirs   bool   // create missing parent directories
}

// writeText writes content to the file with copy's script (one round
// trip) and brings its attributes to what was asked; unchanged content is
// not rewritten. It returns the script's verdict (backup_file, the
// attribute changes) or, when the module should fail, msg.
func (f *textFile) writeText(ctx context.Context, env *tasks.Env, content []byte, o writeOpts) (v verdict, msg string, err error) {
	if o.validate != "" && !strings.Contains(o.validate, "%s") {
		return nil, "validate must contain %s: " + o.validate, nil
	}
	sum := sha1.Sum(content)
	j := copyJob{
		dest: f.real, sum: hex.EncodeToString(sum[:]), content: content,
		mode: o.attrs.mode, owner: o.attrs.owner, group: o.attrs.group,
		force: true, backup: o.backup, validate: o.validate, mkdirs: o.mkdirs,
		guard: true, unsafe: o.attrs.unsafe,
	}
	if f.exists {
		read := sha1.Sum(f.content)
		j.expect = hex.EncodeToString(read[:])
	}
	out, err := run(ctx, env, j.script("-", "", ""), bytes.NewReader(content))
	if err != nil {
		return nil, "", err
	}
	v = parseVerdict(beforeMarker(out.Stdout))
	switch {
	case v["failed"] == "1":
		return v, strings.TrimSpace(v["msg"]), nil
	case v["verdict"] == "invalid":
		stderr, _ := section(out.Stdout, "stderr", "")
		return v, fmt.Sprintf("failed to validate: rc:%s error:%s", v["rc"], strings.TrimSuffix(stderr, "\n")), nil
	case v["verdict"] != "done":
		return v, scriptError(out), nil
	}
	return v, "", nil
}

// finishEdit writes after (when changed and not in check mode), adds the
// attribute changes and builds the result every text module returns:
// changed, msg, the backup file under backupKey and the diff list.
func finishEdit(ctx context.Context, env *tasks.Env, res tasks.Result, f *textFile, w writeOpts,
	after []byte, changed bool, msg string, data map[string]any, backupKey string) (tasks.Result, error) {
	if !changed {
		msg = ""
	}
	header := f.path + " (content)"
	cd := contentDiff(env, header, f.content, after)
	backup := ""
	av := f.attrs
	if !env.Check && (changed || attrsChanged(f.attrs)) {
		v, fail, err := f.writeText(ctx, env, after, w)
		if err != nil {
			return tasks.Result{}, err
		}
		if fail != "" {
			return tasks.Result{Failed: true, Msg: fail, Data: map[string]any{}, Warnings: res.Warnings}, nil
		}
		backup, av = v["backup_file"], v
		if !w.backup {
			backup = ""
		}
	}
	res.Data = data
	if backupKey == "backup" {
		data["backup"] = backup
	} else if backup != "" {
		data[backupKey] = backup
	}
	if env.Check && !f.exists {
		res.Changed, res.Msg = changed, msg
		data["msg"], data["diff"] = msg, cd
		if env.Diff {
			res.Diff = renderDiff(cd)
		}
		return res, nil
	}
	if attrsChanged(av) {
		msg, changed = attrMsg(msg), true
	}
	ad := attrDiffEntry(av, f.path)
	res.Changed, res.Msg = changed, msg
	data["msg"], data["diff"] = msg, []any{cd, ad}
	if env.Diff && changed {
		res.Diff = renderDiff(cd, ad)
	}
	return res, nil
}

// attrMsg appends Ansible's note about changed attributes to msg.
func attrMsg(msg string) string {
	if msg != "" {
		msg += " and "
	}
	return msg + "ownership, perms or SE linux context changed"
}

// contentDiff is the content entry of a text module's diff: the old and
// new text when --diff asked for them, empty strings otherwise.
func contentDiff(env *tasks.Env, header string, before, after []byte) map[string]any {
	d := map[string]any{"before": "", "after": "", "before_header": header, "after_header": header}
	if env.Diff {
		d["before"], d["after"] = string(before), string(after)
	}
	return d
}

// attrDiffEntry is the file-attributes entry of a text module's diff.
func attrDiffEntry(v verdict, path string) map[string]any {
	d := map[string]any{}
	if attrsChanged(v) {
		before, after := map[string]any{}, map[string]any{}
		attrDiff(v, before, after)
		d["before"], d["after"] = before, after
	}
	d["before_header"], d["after_header"] = path+" (file attributes)", path+" (file attributes)"
	return d
}

// renderDiff renders a module's diff entries as text for --diff: a unified
// diff for each content change and the old and new mode for a mode change.
func renderDiff(entries ...map[string]any) string {
	var s strings.Builder
	for _, d := range entries {
		h, _ := d["before_header"].(string)
		switch b := d["before"].(type) {
		case string:
			a, _ := d["after"].(string)
			s.WriteString(unifiedDiff(h, b, a))
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
