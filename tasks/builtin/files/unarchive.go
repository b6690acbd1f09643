package files

import (
	"context"
	"crypto/sha1"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// unarchiveModule unpacks tar.gz, tgz, tar, tar.bz2, tar.xz and zip
// archives into an existing directory on the host, as Ansible's
// unarchive. A controller archive (found as Ansible finds files) is
// streamed to a temporary file beside dest with Put, then one round trip
// decides, unpacks and sets attributes (unarchiveScript); with remote_src
// the archive is already on the host and nothing travels.
type unarchiveModule struct{}

var _ tasks.Module = unarchiveModule{}

var unarchiveArgs = &tasks.Spec{
	Module: "unarchive",
	Params: append([]tasks.Param{
		{Name: "src", Kind: tasks.Path, Required: true},
		{Name: "dest", Kind: tasks.Path, Required: true},
		{Name: "remote_src", Kind: tasks.Bool, Default: false},
		{Name: "creates", Kind: tasks.Path},
		{Name: "list_files", Kind: tasks.Bool, Default: false},
		{Name: "keep_newer", Kind: tasks.Bool, Default: false},
		{Name: "exclude", Kind: tasks.List},
		{Name: "include", Kind: tasks.List},
		{Name: "extra_opts", Kind: tasks.List},
		{Name: "validate_certs", Kind: tasks.Bool, Default: true},
		{Name: "io_buffer_size", Kind: tasks.Int, Default: 65536},
		{Name: "copy", Kind: tasks.Bool, Default: true},
		{Name: "decrypt", Kind: tasks.Bool, Default: true},
	}, shared.AttrParams...),
	MutuallyExclusive: [][]string{{"include", "exclude"}},
}

// Run unpacks the archive unless dest already holds it.
func (unarchiveModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := unarchiveArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	mode, err := shared.ModeArg(a["mode"])
	if err != nil {
		return tasks.Result{}, err
	}
	src, dest := a.Str("src"), a.Str("dest")
	remote := a.Bool("remote_src") || !a.Bool("copy")
	if c := a.Str("creates"); c != "" || !remote {
		// Before anything travels, as Ansible's action plugin does:
		// creates skips the task, a missing dest fails it.
		out, err := shared.Run(ctx, env, shared.ShAssign([][2]string{{"creates", c}, {"dest", dest}})+unarchivePre, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		switch strings.TrimSpace(string(out.Stdout)) {
		case "creates":
			return tasks.Result{Skipped: true, Msg: fmt.Sprintf("skipped, since %s exists", c), Data: map[string]any{}}, nil
		case "nodest":
			return shared.Fail(fmt.Sprintf("dest '%s' must be an existing dir", dest)), nil
		}
	}
	if remote && strings.Contains(src, "://") {
		return shared.Fail("unarchive: a URL as src with remote_src is not supported by tender; fetch it with get_url first"), nil
	}
	lists := map[string][]string{}
	for _, k := range []string{"exclude", "include", "extra_opts"} {
		for _, w := range a.Strings(k) {
			if strings.ContainsAny(w, "\n\r") {
				return tasks.Result{}, fmt.Errorf("unarchive: %s holds a newline: %q", k, w)
			}
			lists[k] = append(lists[k], w)
		}
	}
	hostSrc, uploaded := src, ""
	if !remote {
		local, err := env.FindFile("files", src)
		if err != nil {
			return shared.Fail(err.Error()), nil
		}
		if err := env.Sandbox.CheckRead(local); err != nil {
			return tasks.Result{}, err
		}
		hostSrc, err = uploadArchive(ctx, env, local, dest)
		if err != nil {
			return shared.Fail(fmt.Sprintf("Source '%s' failed to transfer: %v", src, err)), nil
		}
		uploaded = "1"
	}
	script := shared.ShAssign([][2]string{
		{"src", hostSrc}, {"dest", dest}, {"uploaded", uploaded}, {"excludes", strings.Join(lists["exclude"], "\n")},
		{"includes", strings.Join(lists["include"], "\n")}, {"opts", strings.Join(lists["extra_opts"], "\n")},
		{"keep_newer", shared.BoolFlag(a.Bool("keep_newer"))}, {"mode", mode}, {"owner", a.Str("owner")}, {"group", a.Str("group")},
		{"_t_check", shared.BoolFlag(env.Check)},
	}) + unarchiveScript
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	head, rest, _ := strings.Cut(string(out.Stdout), "\n--output--\n")
	v := shared.ParseVerdict([]byte(head))
	data := map[string]any{"dest": dest, "src": hostSrc}
	if h := v["handler"]; h != "" {
		data["handler"] = h
	}
	var cmd []any
	for _, l := range strings.Split(head, "\n") {
		if w, ok := strings.CutPrefix(l, "cmd="); ok {
			cmd = append(cmd, w)
		}
	}
	outLen, errLen := shared.Atoi(v["outlen"]), shared.Atoi(v["errlen"])
	outLen = min(max(outLen, 0), len(rest))
	if v["extracted"] == "1" {
		errEnd := min(outLen+max(errLen, 0), len(rest))
		if v["verdict"] == "failed" {
			errEnd = len(rest)
		}
		data["extract_results"] = map[string]any{"cmd": cmd, "rc": shared.Atoi(v["rc"]), "out": rest[:outLen], "err": rest[outLen:errEnd]}
		rest = rest[errEnd:]
	} else if v["verdict"] == "done" {
		rest = rest[min(outLen+max(errLen, 0), len(rest)):]
	}
	switch v["verdict"] {
	case "failed":
		if v["nodest"] == "1" {
			data = map[string]any{}
		}
		return tasks.Result{Failed: true, Msg: v["msg"], Data: data}, nil
	case "gtarcheck":
		return tasks.Result{Skipped: true, Msg: "remote module (unarchive) does not support check mode when using gtar", Data: map[string]any{}}, nil
	case "done":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}, nil
	}
	shared.InfoData(data, v, "")
	if a.Bool("list_files") {
		files := []any{}
		for _, f := range strings.Split(strings.TrimSuffix(rest, "\n"), "\n") {
			if f != "" {
				files = append(files, f)
			}
		}
		data["files"] = files
	}
	return tasks.Result{Changed: v["changed"] == "1", Data: data}, nil
}

// unarchivePre answers creates and whether dest is a directory.
//
//go:embed unarchive_pre.sh
var unarchivePre string

// uploadArchive streams the controller's archive to a temporary file in
// dest's parent directory on the host (dest itself may not exist yet:
// the script says so) and returns its path.
func uploadArchive(ctx context.Context, env *tasks.Env, local, dest string) (string, error) {
	f, err := os.Open(local)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha1.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	name := ".tender-unarchive-" + hex.EncodeToString(h.Sum(nil))[:12] + "-" + path.Base(local)
	remote := path.Join(path.Dir(strings.TrimSuffix(dest, "/")), name)
	return remote, env.Conn.Put(ctx, remote, f, 0o600)
}

func (unarchiveModule) Spec() *tasks.Spec { return unarchiveArgs }
