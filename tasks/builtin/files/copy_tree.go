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
	src := a.Str("src")
	root := strings.TrimSuffix(j.Dest, "/")
	if !strings.HasSuffix(src, "/") {
		root = path.Join(root, filepath.Base(local))
	}
	data := map[string]any{"dest": strings.TrimSuffix(j.Dest, "/") + "/", "src": local}
	if strings.HasSuffix(src, "/") {
		data["src"] = strings.TrimSuffix(local, "/") + "/"
	}
	w, err := walkCopyTree(local, a.Bool("local_follow"), env.Sandbox.CheckRead)
	for _, f := range w.files {
		// a link the walk followed may lead anywhere
		if err := env.Sandbox.CheckRead(f.local); err != nil {
			return tasks.Result{}, err
		}
	}
	if denied := (*tasks.DeniedError)(nil); errors.As(err, &denied) {
		return tasks.Result{}, err
	}
	for i := range w.files {
		if msg := vaultRefusal(w.files[i].local); msg != "" && a.Bool("decrypt") {
			if env.Decrypt != nil {
				msg = "tender does not decrypt vault-encrypted files inside a directory copy: " + w.files[i].local +
					" (copy it on its own, or set decrypt: false)"
			}
			return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
		}
		if err == nil {
			w.files[i].sum, err = shared.FileSHA1(w.files[i].local)
		}
	}
	if err != nil {
		return tasks.Result{Failed: true, Msg: err.Error(), Data: map[string]any{}}, nil
	}
	dirs, files := append([]string{""}, w.dirs...), w.files
	dmode, err := shared.ModeArg(a["directory_mode"])
	if err != nil {
		return tasks.Result{Failed: true, Msg: err.Error(), Data: map[string]any{}}, nil
	}

	fmode := func(f treeFile) string {
		if j.Mode != "preserve" {
			return j.Mode
		}
		// preserve: each file gets its own source's mode
		if fi, err := os.Stat(f.local); err == nil {
			return fmt.Sprintf("%o", fi.Mode().Perm())
		}
		return ""
	}
	var plan []string
	for _, d := range dirs {
		plan = append(plan, "d", d)
	}
	for _, f := range files {
		plan = append(plan, "f", f.rel, f.sum, fmode(f))
	}
	for _, l := range w.links {
		plan = append(plan, "l", l.rel, l.target)
	}
	attrs := shared.ShAssign([][2]string{{"owner", j.Owner}, {"group", j.Group}})
	script := shared.ShFuncs + shared.AttrFuncs + attrs + shared.ShAssign([][2]string{{"_t_check", shared.BoolFlag(j.Check)},
		{"root", root}, {"dmode", dmode}, {"force", shared.BoolFlag(j.Force)}}) + shared.SetArgs(plan) + copyTreeScript
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	if v["failed"] == "1" || out.ExitCode != 0 {
		msg := v["msg"]
		if msg == "" {
			msg = shared.ScriptError(out)
		}
		return tasks.Result{Failed: true, Msg: strings.TrimSpace(msg), Data: data}, nil
	}
	res := tasks.Result{Changed: v["changed"] == "1", Data: data}
	var fix []string
	for i, f := range files {
		m, ok := v["put"+strconv.Itoa(i)]
		if !ok {
			continue
		}
		res.Changed = true
		if j.Check {
			continue
		}
		perm, _ := strconv.ParseUint(m, 8, 32)
		if err := putFile(ctx, env, path.Join(root, f.rel), f.local, fs.FileMode(perm)); err != nil {
			return tasks.Result{}, err
		}
		if j.Mode != "" || j.Owner != "" || j.Group != "" {
			fix = append(fix, path.Join(root, f.rel), fmode(f))
		}
	}
	if len(fix) > 0 {
		out, err := shared.Run(ctx, env, shared.ShFuncs+shared.AttrFuncs+attrs+shared.SetArgs(fix)+copyTreeAttrsScript, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		if v := shared.ParseVerdict(out.Stdout); v["failed"] == "1" {
			return tasks.Result{Failed: true, Msg: strings.TrimSpace(v["msg"]), Data: data}, nil
		}
	}
	return res, nil
}

func putFile(ctx context.Context, env *tasks.Env, dst, local string, mode fs.FileMode) error {
	f, err := os.Open(local)
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
