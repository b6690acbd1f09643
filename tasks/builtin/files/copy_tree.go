package files

import (
	"context"
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

	var s strings.Builder
	s.WriteString(shared.ShFuncs + shared.AttrFuncs)
	fmt.Fprintf(&s, "_t_check=%s\nroot=%s\n", shared.BoolFlag(j.Check), shared.Q(root))
	for _, d := range dirs {
		fmt.Fprintf(&s, "p=\"$root\"/%s\nif [ ! -d \"$p\" ]; then _t_changed=1; [ -n \"$_t_check\" ] || mkdir -p -- \"$p\" || _t_fail \"could not create $p\"; fi\n", shared.Q(d))
		fmt.Fprintf(&s, "[ -d \"$p\" ] && _t_attrs \"$p\" %s %s %s >/dev/null\n", shared.Q(dmode), shared.Q(j.Owner), shared.Q(j.Group))
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
	for i, f := range files {
		fmt.Fprintf(&s, "p=\"$root\"/%s\nif _t_exists \"$p\"; then\n", shared.Q(f.rel))
		fmt.Fprintf(&s, "  if [ \"$(_t_sum sha1 \"$p\")\" = %s ]; then _t_attrs \"$p\" %s %s %s >/dev/null\n", shared.Q(f.sum), shared.Q(fmode(f)), shared.Q(j.Owner), shared.Q(j.Group))
		if j.Force {
			fmt.Fprintf(&s, "  else echo \"put%d=$(stat -c %%a -- \"$p\")\"; fi\n", i)
		} else {
			s.WriteString("  fi\n")
		}
		fmt.Fprintf(&s, "else echo put%d=644; fi\n", i)
	}
	for _, l := range w.links {
		// as Ansible's file module with state=link, force and no follow
		fmt.Fprintf(&s, "p=\"$root\"/%s; t=%s\n", shared.Q(l.rel), shared.Q(l.target))
		s.WriteString(`if [ ! -L "$p" ] || [ "$(readlink -- "$p")" != "$t" ]; then
  _t_changed=1
  if [ -z "$_t_check" ]; then
    if [ -d "$p" ] && [ ! -L "$p" ]; then rmdir -- "$p" 2>/dev/null || _t_fail "the directory $p is not empty, refusing to convert it"; fi
    ln -sfn -- "$t" "$p" || _t_fail "Error while linking: $p"
  fi
fi
`)
		if j.Owner != "" || j.Group != "" {
			fmt.Fprintf(&s, "[ -L \"$p\" ] && _t_attrs \"$p\" '' %s %s >/dev/null\n", shared.Q(j.Owner), shared.Q(j.Group))
		}
	}
	s.WriteString("echo \"changed=$_t_changed\"\n")
	out, err := shared.Run(ctx, env, s.String(), nil)
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
	var fix strings.Builder
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
			fmt.Fprintf(&fix, "_t_attrs %s %s %s %s >/dev/null\n", shared.Q(path.Join(root, f.rel)), shared.Q(fmode(f)), shared.Q(j.Owner), shared.Q(j.Group))
		}
	}
	if fix.Len() > 0 {
		out, err := shared.Run(ctx, env, shared.ShFuncs+shared.AttrFuncs+fix.String(), nil)
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
