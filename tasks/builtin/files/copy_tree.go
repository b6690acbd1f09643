package files

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// copyTree copies the controller directory local to the host as Ansible
// does: "dir" lands as dest/dir, "dir/" copies its contents into dest.
// One round trip creates missing directories, fixes attributes of files
// that are already right and reports which differ; only those move (each
// with an atomic Put), and one more round trip sets the attributes of the
// new files when mode, owner or group were asked.
func copyTree(ctx context.Context, env *tasks.Env, a tasks.Values, local string, j shared.CopyJob) (tasks.Result, error) {
	t, fail, err := planCopyTree(env, a, local, j)
	if err != nil || fail != nil {
		return shared.EndWith(fail, err)
	}
	out, err := shared.Run(ctx, env, t.script(), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	if v["failed"] == "1" || out.ExitCode != 0 {
		msg := v["msg"]
		if msg == "" {
			msg = shared.ScriptError(out)
		}
		return tasks.Result{Failed: true, Msg: strings.TrimSpace(msg), Data: t.data}, nil
	}
	res := tasks.Result{Changed: v["changed"] == "1", Data: t.data}
	fix, put, err := t.putChanged(ctx, env, v)
	if err != nil {
		return tasks.Result{}, err
	}
	res.Changed = res.Changed || put
	if len(fix) > 0 {
		out, err := shared.Run(ctx, env, t.attrsScript(fix), nil)
		if err != nil {
			return tasks.Result{}, err
		}
		if v := shared.ParseVerdict(out.Stdout); v["failed"] == "1" {
			return tasks.Result{Failed: true, Msg: strings.TrimSpace(v["msg"]), Data: t.data}, nil
		}
	}
	return res, nil
}

// copyTreePlan is a directory copy worked out on the controller: the
// copy's job, the root the tree lands at on the host, what the walk found
// (dirs with the root itself, "", first), the directories' mode and the
// result's data.
type copyTreePlan struct {
	j     shared.CopyJob
	root  string
	dirs  []string
	w     copyWalk
	dmode string
	data  map[string]any
}

// planCopyTree walks local, checking each directory and file against the
// sandbox, refuses vault-encrypted files, sums the files and reads
// directory_mode; a failed result (or a sandbox error) ends the copy.
func planCopyTree(env *tasks.Env, a tasks.Values, local string, j shared.CopyJob) (copyTreePlan, *tasks.Result, error) {
	src := a.Str("src")
	t := copyTreePlan{j: j, root: strings.TrimSuffix(j.Dest, "/"),
		data: map[string]any{"dest": strings.TrimSuffix(j.Dest, "/") + "/", "src": local}}
	if !strings.HasSuffix(src, "/") {
		t.root = path.Join(t.root, filepath.Base(local))
	}
	if strings.HasSuffix(src, "/") {
		t.data["src"] = strings.TrimSuffix(local, "/") + "/"
	}
	w, err := walkCopyTree(local, a.Bool("local_follow"), env.Sandbox)
	for _, f := range w.files {
		// a link the walk followed may lead anywhere
		if err := env.Sandbox.CheckRead(f.local); err != nil {
			return t, nil, err
		}
	}
	if denied := (*sandbox.DeniedError)(nil); errors.As(err, &denied) {
		return t, nil, err
	}
	if fail := sumTreeFiles(env, w.files, a.Bool("decrypt"), err); fail != nil {
		return t, fail, nil
	}
	t.w, t.dirs = w, append([]string{""}, w.dirs...)
	if t.dmode, err = shared.ModeArg(a["directory_mode"]); err != nil {
		return t, &tasks.Result{Failed: true, Msg: err.Error(), Data: map[string]any{}}, nil
	}
	return t, nil, nil
}

// sumTreeFiles refuses the first vault-encrypted file when decrypt is on
// and fills in each file's SHA-1 until an error, walkErr (the walk's) or
// one of the sums'; that error is then the failure.
func sumTreeFiles(env *tasks.Env, files []treeFile, decrypt bool, walkErr error) *tasks.Result {
	err := walkErr
	for i := range files {
		if msg := vaultRefusal(env, files[i].local); msg != "" && decrypt {
			if env.Decrypt != nil {
				msg = "tender does not decrypt vault-encrypted files inside a directory copy: " + files[i].local +
					" (copy it on its own, or set decrypt: false)"
			}
			return &tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}
		}
		if err == nil {
			files[i].sum, err = shared.FileSHA1(env.Sandbox, files[i].local)
		}
	}
	if err != nil {
		return &tasks.Result{Failed: true, Msg: err.Error(), Data: map[string]any{}}
	}
	return nil
}

// fileMode is the mode f gets on the host: the one asked for or, with
// preserve, its source's own ("" when that cannot be read).
func (t copyTreePlan) fileMode(f treeFile) string {
	if t.j.Mode != "preserve" {
		return t.j.Mode
	}
	if fi, err := os.Stat(f.local); err == nil {
		return fmt.Sprintf("%o", fi.Mode().Perm())
	}
	return ""
}

// attrs assigns the owner and group the copy asks for, as both scripts
// read them.
func (t copyTreePlan) attrs() string {
	return shared.ShAssign([][2]string{{"owner", t.j.Owner}, {"group", t.j.Group}})
}

// script is the script that brings the tree on the host into line
// (copy_tree.sh), given the directories, files and links to make as its
// arguments.
func (t copyTreePlan) script() string {
	var plan []string
	for _, d := range t.dirs {
		plan = append(plan, "d", d)
	}
	for _, f := range t.w.files {
		plan = append(plan, "f", f.rel, f.sum, t.fileMode(f))
	}
	for _, l := range t.w.links {
		plan = append(plan, "l", l.rel, l.target)
	}
	return shared.ShFuncs + shared.AttrFuncs + t.attrs() + shared.ShAssign([][2]string{{"_t_check", shared.BoolFlag(t.j.Check)},
		{"root", t.root}, {"dmode", t.dmode}, {"force", shared.BoolFlag(t.j.Force)}}) + shared.SetArgs(plan) + copyTreeScript
}

// putChanged sends the files the script reported as differing (putN=mode
// in v), outside check mode; it returns the paths and modes whose
// attributes are still to be set, and whether any file differed.
func (t copyTreePlan) putChanged(ctx context.Context, env *tasks.Env, v shared.Verdict) ([]string, bool, error) {
	var fix []string
	changed := false
	for i, f := range t.w.files {
		m, ok := v["put"+strconv.Itoa(i)]
		if !ok {
			continue
		}
		changed = true
		if t.j.Check {
			continue
		}
		perm, _ := strconv.ParseUint(m, 8, 32)
		if err := putFile(ctx, env, path.Join(t.root, f.rel), f.local, fs.FileMode(perm)); err != nil {
			return nil, changed, err
		}
		if t.j.Mode != "" || t.j.Owner != "" || t.j.Group != "" {
			fix = append(fix, path.Join(t.root, f.rel), t.fileMode(f))
		}
	}
	return fix, changed, nil
}

// attrsScript is the script that sets the attributes of the files sent
// (copy_tree_attrs.sh), fix holding each one's path and mode.
func (t copyTreePlan) attrsScript(fix []string) string {
	return shared.ShFuncs + shared.AttrFuncs + t.attrs() + shared.SetArgs(fix) + copyTreeAttrsScript
}

// putFile streams the controller file local (opened through the sandbox)
// to dst on the host with mode.
func putFile(ctx context.Context, env *tasks.Env, dst, local string, mode fs.FileMode) error {
	f, err := env.Sandbox.Open(local)
	if err != nil {
		return err
	}
	defer f.Close()
	return env.Conn.Put(ctx, dst, f, mode)
}

// copyTreeScript brings the tree on the host into line (copy_tree.sh);
// copyTreeAttrsScript sets the attributes of the files sent after it
// (copy_tree_attrs.sh).
var (
	//go:embed copy_tree.sh
	copyTreeScript string
	//go:embed copy_tree_attrs.sh
	copyTreeAttrsScript string
)
