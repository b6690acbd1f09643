package files

import (
	"context"
	"crypto/sha1"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// fetchModule copies a host file to the controller, as Ansible's fetch:
// to dest/<inventory_hostname>/<src path>, or to dest itself with flat.
// One round trip compares the host file's sha1 with the controller's copy
// and sends the bytes back only when they differ (a file over 64 KiB
// comes with Conn.Get instead). The controller file is written to a
// temporary file beside it and renamed. Like Ansible's, it does not run in
// check mode.
type fetchModule struct{}

var _ tasks.Module = (*fetchModule)(nil)

var fetchArgs = &tasks.Spec{
	Module: "fetch",
	Params: []tasks.Param{
		{Name: "src"},
		{Name: "dest"},
		{Name: "flat", Kind: tasks.Bool, Default: false},
		{Name: "fail_on_missing", Kind: tasks.Bool, Default: true},
		{Name: "validate_checksum", Kind: tasks.Bool, Default: true},
	},
}

// fetchScript prints what $p is and, when its sha1 is not $have, its
// bytes after a "--content--" line (or get=1 for a large file).
//
//go:embed fetch.sh
var fetchScript string

// fetchExpandScript prints a path as the host expands it
// (fetch_expand.sh).
//
//go:embed fetch_expand.sh
var fetchExpandScript string

// Run fetches.
func (fetchModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := fetchArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if env.Check {
		return tasks.Result{Skipped: true, Msg: "check mode not (yet) supported for this module", Data: map[string]any{}}, nil
	}
	src, dest := a.Str("src"), a.Str("dest")
	if !a.Has("src") || !a.Has("dest") {
		return shared.FailWith("src and dest are required", nil)
	}
	if !filepath.IsAbs(dest) {
		base := "."
		if env.Eval != nil {
			if v, err := env.Eval("playbook_dir"); err == nil {
				if s, ok := v.(string); ok && s != "" {
					base = s
				}
			}
		}
		if dest, err = filepath.Abs(filepath.Join(base, dest)); err != nil {
			return shared.FailWith(err.Error(), nil)
		}
	}
	if err := env.Sandbox.CheckWrite(dest); err != nil {
		return tasks.Result{}, err
	}
	// The host expands ~ in src; the local layout uses what it expanded
	// to, so a first round trip is needed only for such a src.
	if strings.HasPrefix(src, "~") {
		out, err := shared.Run(ctx, env, "p="+shared.ShPath(src)+"\n"+fetchExpandScript, nil)
		if err != nil {
			return tasks.Result{}, err
		}
		src = string(out.Stdout)
	}
	if a.Bool("flat") {
		if fi, err := os.Stat(dest); err == nil && fi.IsDir() && !strings.HasSuffix(a.Str("dest"), "/") {
			return shared.FailWith("dest is an existing directory, use a trailing slash if you want to fetch src into that directory", nil)
		}
		if strings.HasSuffix(a.Str("dest"), "/") {
			dest = filepath.Join(dest, filepath.Base(src))
		}
	} else {
		top := filepath.Join(dest, env.Host)
		dest = filepath.Join(top, src)
		if dest != top && !strings.HasPrefix(dest, top+string(filepath.Separator)) {
			return shared.FailWith(fmt.Sprintf("Detected directory traversal, expected to be contained in '%s' but got '%s'", top, dest), nil)
		}
	}
	dest = filepath.Clean(dest)
	if err := env.Sandbox.CheckWrite(dest); err != nil {
		return tasks.Result{}, err
	}
	have, _ := shared.FileSHA1(dest)

	script := fmt.Sprintf("%sp=%s\nhave=%s\nmax=%d\n%s", shared.ShFuncs, shared.ShPath(src), shared.Q(have), shared.InlineMax, fetchScript)
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
	switch {
	case v["isdir"] == "1":
		msg := "remote file is a directory, fetch cannot work on directories"
		if a.Bool("fail_on_missing") {
			return shared.FailWith(msg, nil)
		}
		return tasks.Result{Msg: msg + ", not transferring, ignored", Data: map[string]any{}}, nil
	case v["missing"] == "1":
		if !a.Bool("fail_on_missing") {
			return tasks.Result{Msg: "the remote file does not exist, not transferring, ignored", Data: map[string]any{"file": src}}, nil
		}
		return shared.FailWith("the remote file does not exist, not transferring, ignored", nil)
	case v["unreadable"] == "1":
		return shared.FailWith("file is not readable: "+src, nil)
	case v["sum"] == "":
		return shared.FailWith(shared.ScriptError(out), nil)
	}
	remote := v["sum"]
	if remote == have {
		return tasks.Result{Data: map[string]any{"md5sum": fileMD5(dest), "file": src, "dest": dest, "checksum": have}}, nil
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return shared.FailWith(fmt.Sprintf("Failed to fetch the file: %v", err), nil)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), ".tender-fetch-*")
	if err != nil {
		return shared.FailWith(fmt.Sprintf("Failed to fetch the file: %v", err), nil)
	}
	defer os.Remove(tmp.Name())
	h := sha1.New()
	w := io.MultiWriter(tmp, h)
	if v["get"] == "1" {
		err = env.Conn.Get(ctx, src, w)
	} else {
		c, _ := shared.Section(out.Stdout, "content", "")
		_, err = io.Copy(w, strings.NewReader(c))
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return shared.FailWith(fmt.Sprintf("Failed to fetch the file: %v", err), nil)
	}
	got := hex.EncodeToString(h.Sum(nil))
	if a.Bool("validate_checksum") && got != remote {
		return shared.FailWith("checksum mismatch", map[string]any{"md5sum": fileMD5(tmp.Name()), "file": src, "dest": dest,
			"remote_md5sum": nil, "checksum": got, "remote_checksum": remote})
	}
	perm := os.FileMode(0o644) // what Python's open() makes under the usual umask
	if fi, err := os.Stat(dest); err == nil {
		perm = fi.Mode().Perm()
	}
	os.Chmod(tmp.Name(), perm)
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return shared.FailWith(fmt.Sprintf("Failed to fetch the file: %v", err), nil)
	}
	return tasks.Result{Changed: true, Data: map[string]any{"md5sum": fileMD5(dest), "dest": dest,
		"remote_md5sum": nil, "checksum": got, "remote_checksum": remote}}, nil
}

// fileMD5 is the md5 of a controller file, nil when it cannot be read.
func fileMD5(p string) any {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	return shared.Md5hex(b)
}

func (fetchModule) Spec() *tasks.Spec { return fetchArgs }
