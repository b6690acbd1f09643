package files

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// copyModule copies a controller file, inline content, or (remote_src) a
// host file to dest. A file up to inlineMax bytes costs one round trip
// whether or not it changed: the script compares checksums and reads the
// content from stdin only when they differ. A larger file costs one round
// trip when unchanged (the probe); when changed, its bytes move with Put
// and a second script puts it in place. A directory src is copied
// recursively (see copyTree).
type copyModule struct{}

var _ tasks.Module = (*copyModule)(nil)

var copyArgs = &tasks.Spec{
	Module: "copy",
	Params: append([]tasks.Param{
		{Name: "src", Kind: tasks.Path},
		{Name: "content", Kind: tasks.Raw},
		{Name: "dest", Kind: tasks.Path, Required: true},
		{Name: "backup", Kind: tasks.Bool, Default: false},
		{Name: "force", Kind: tasks.Bool, Default: true, Aliases: []string{"thirsty"}},
		{Name: "remote_src", Kind: tasks.Bool, Default: false},
		{Name: "validate"},
		{Name: "directory_mode", Kind: tasks.Raw},
		{Name: "follow", Kind: tasks.Bool, Default: false},
		{Name: "local_follow", Kind: tasks.Bool, Default: true},
		{Name: "checksum"},
		{Name: "decrypt", Kind: tasks.Bool, Default: true},
		{Name: "_original_basename"},
	}, shared.AttrParams...),
	MutuallyExclusive: [][]string{{"content", "src"}},
}

// Run copies.
func (copyModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	failed := func(msg string) (tasks.Result, error) {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	if args["dest"] == nil {
		// Ansible's copy action names a missing src before a missing dest.
		if (args["src"] == nil || args["src"] == "") && args["content"] == nil {
			return failed("src (or content) is required")
		}
		return failed("dest is required")
	}
	a, err := copyArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if a.Has("src") && a.Str("src") == "" {
		delete(a, "src") // an empty src names nothing (Ansible's message for a missing one)
	}
	if !a.Has("src") && !a.Has("content") {
		return failed("src (or content) is required")
	}
	mode, err := shared.ModeArg(a["mode"])
	if a["mode"] == "preserve" {
		// copy's own mode: the source's, read where the source is
		mode, err = "preserve", nil
	}
	if err != nil {
		return failed(err.Error())
	}
	j := shared.CopyJob{
		Dest: a.Str("dest"), Mode: mode, Owner: a.Str("owner"), Group: a.Str("group"),
		Force: a.Bool("force"), Backup: a.Bool("backup"), Validate: a.Str("validate"),
		Remote: a.Bool("remote_src"), Check: env.Check, Diff: env.Diff, Se: shared.SeAssign(a),
		Unsafe: a.Bool("unsafe_writes"), Follow: a.Bool("follow"),
		Lfollow: args["local_follow"] != nil && a.Bool("local_follow"),
	}
	if j.Dest == "" {
		return failed("dest is required")
	}
	switch {
	case a.Has("content"):
		// template names the file its content came from: a directory
		// dest gets it under that name.
		j.Base = a.Str("_original_basename")
		switch c := a["content"].(type) {
		case string:
			j.Content = []byte(c)
			j.FromContent = true
		default:
			j.Content = []byte(shared.PyJSON(c))
			j.FromContent = true
		}
	case j.Remote:
		j.Source, j.Base = a.Str("src"), path.Base(a.Str("src"))
	default:
		local, err := env.FindFile("files", a.Str("src"))
		if err != nil {
			return failed(err.Error())
		}
		if err := env.Sandbox.CheckRead(local); err != nil {
			return tasks.Result{}, err
		}
		fi, err := os.Stat(local)
		if err != nil {
			return failed(fmt.Sprintf("could not find src=%s, %v", local, err))
		}
		if fi.IsDir() {
			return copyTree(ctx, env, a, local, j)
		}
		vaulted := vaultRefusal(local) != "" && a.Bool("decrypt")
		if vaulted && env.Decrypt == nil {
			return failed(vaultRefusal(local))
		}
		j.Base, j.LocalPath = path.Base(local), local
		if mode == "preserve" {
			j.Mode = fmt.Sprintf("%o", fi.Mode().Perm())
		}
		if vaulted {
			if j.Content, err = decryptFile(env, local); err != nil {
				return failed(err.Error())
			}
		} else if fi.Size() > shared.InlineMax {
			j.Local = local
			if j.Sum, err = shared.FileSHA1(local); err != nil {
				return failed(err.Error())
			}
		} else if j.Content, err = os.ReadFile(local); err != nil {
			return failed(err.Error())
		}
	}
	if j.Content != nil {
		s := sha1.Sum(j.Content)
		j.Sum = hex.EncodeToString(s[:])
	}
	if c := a.Str("checksum"); c != "" && j.Sum != "" && c != j.Sum {
		return failed(fmt.Sprintf("Copied file does not match the expected checksum. Transfer failed. (expected %s, got %s)", c, j.Sum))
	}
	return j.Run(ctx, env)
}

func (copyModule) Spec() *tasks.Spec { return copyArgs }
