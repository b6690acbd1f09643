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
	"github.com/tender-sh/tender/transport"
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

// Run fetches: the controller path decided, the host's file probed (its
// checksum, and its bytes when small), and the file stored on the
// controller when it differs from the copy there.
func (fetchModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	if env.Check {
		return tasks.Result{Skipped: true, Msg: "check mode not (yet) supported for this module", Data: map[string]any{}}, nil
	}
	if msg := fetchArgsMsg(args); msg != "" {
		return shared.FailWith(msg, nil)
	}
	a, err := fetchArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	src, dest, fail, err := fetchPaths(ctx, env, a)
	if err != nil {
		return tasks.Result{}, err
	}
	if fail != "" && fail != fetchFlatDirMsg {
		return shared.FailWith(fail, nil)
	}
	// Ansible looks at the host's file before it decides where to store
	// it: a missing src is reported before a flat dest that is a
	// directory.
	have, max := "", -1 // max -1: no bytes come back
	if fail == "" {
		have, _ = shared.FileSHA1(nil, dest)
		max = shared.InlineMax
	}
	script := fmt.Sprintf("%sp=%s\nhave=%s\nmax=%d\n%s", shared.ShFuncs, shared.ShPath(src), shared.Q(have), max, fetchScript)
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
	if res, done := fetchProbeResult(v, a, src, env.Become, out); done || fail != "" {
		if !done {
			return shared.FailWith(fail, nil)
		}
		return res, nil
	}
	remote := v["sum"]
	if remote == have {
		return tasks.Result{Data: map[string]any{"md5sum": fileMD5(dest), "file": src, "dest": dest, "checksum": have}}, nil
	}
	body := func(w io.Writer) error {
		if v["get"] == "1" {
			return env.Conn.Get(ctx, src, w)
		}
		c, _ := shared.Section(out.Stdout, "content", "")
		_, err := io.WriteString(w, c)
		return err
	}
	return storeFetched(body, src, dest, remote, a.Bool("validate_checksum"))
}

// fetchPaths returns the host's path (a leading ~ expanded by the host,
// which costs a round trip) and the controller's path it is stored at:
// dest itself when flat (dest/<src's base name> when dest ends in a
// slash), else dest/HOST/src, relative to the playbook's directory. A
// path the task may not write is refused (an error); a failure message
// refuses a host name that is not one path component, a src whose
// ".." parts lead out of dest/HOST, and a src with no base name to
// store under a flat dest/ (departing from Ansible, which writes
// wherever the joined path leads: docs/SECURITY.md).
func fetchPaths(ctx context.Context, env *tasks.Env, a tasks.Values) (src, dest, fail string, err error) {
	src, dest = a.Str("src"), a.Str("dest")
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
			return src, "", err.Error(), nil
		}
	}
	if err := env.Sandbox.CheckWrite(dest); err != nil {
		return "", "", "", err
	}
	if strings.HasPrefix(src, "~") {
		out, err := shared.Run(ctx, env, "p="+shared.ShPath(src)+"\n"+fetchExpandScript, nil)
		if err != nil {
			return "", "", "", err
		}
		src = string(out.Stdout)
	}
	if a.Bool("flat") {
		if fi, err := os.Stat(dest); err == nil && fi.IsDir() && !strings.HasSuffix(a.Str("dest"), "/") {
			return src, "", fetchFlatDirMsg, nil
		}
		if strings.HasSuffix(a.Str("dest"), "/") {
			base := filepath.Base(src)
			if base == "." || base == ".." || base == string(filepath.Separator) {
				return src, "", fmt.Sprintf("src %q names no file to store in %s", src, dest), nil
			}
			dest = filepath.Join(dest, base)
		}
	} else {
		if !oneComponent(env.Host) {
			return src, "", fmt.Sprintf("the host name %q is not a directory name of its own under %s (it is empty, '.' or '..', or holds a '/'): its file would be written at %s",
				env.Host, dest, filepath.Join(dest, env.Host, src)), nil
		}
		top := filepath.Join(dest, env.Host)
		dest = filepath.Join(top, src)
		if dest != top && !strings.HasPrefix(dest, top+string(filepath.Separator)) {
			return src, "", fmt.Sprintf("Detected directory traversal, expected to be contained in '%s' but got '%s'", top, dest), nil
		}
	}
	dest = filepath.Clean(dest)
	if err := env.Sandbox.CheckWrite(dest); err != nil {
		return "", "", "", err
	}
	return src, dest, "", nil
}

// fetchFlatDirMsg is Ansible's failure for a flat dest that names an
// existing directory without a trailing slash.
const fetchFlatDirMsg = "dest is an existing directory, use a trailing slash if you want to fetch src into that directory"

// oneComponent reports whether a host name is one path component, the
// directory fetch stores that host's files in: not empty, "." or "..",
// and without a separator. Anything else (a host added under the name a
// host chose, say) would put the files outside dest or in another host's
// directory.
func oneComponent(host string) bool {
	return host != "" && host != "." && host != ".." && !strings.ContainsRune(host, '/') && !strings.ContainsRune(host, filepath.Separator)
}

// fetchArgsMsg is the failure of Ansible's fetch action for src and dest
// that are missing or not strings, before anything else is checked.
func fetchArgsMsg(args tasks.Args) string {
	msg := ""
	if _, ok := tasks.Text(args["src"]); !ok {
		msg = "Invalid type supplied for source option, it must be a string"
	}
	if _, ok := tasks.Text(args["dest"]); !ok {
		msg = "Invalid type supplied for dest option, it must be a string"
	}
	if args["src"] == nil || args["dest"] == nil {
		msg = "src and dest are required"
	}
	return msg
}

// fetchProbeResult is the result when the probe ends the task, with done
// true; else done is false. Ansible's fetch stats the file first (not
// under become): a stat that fails for another reason than a missing
// file, and a directory, end it there; under become, or when stat found
// no file or no checksum, it reads the file with slurp, whose failures
// (missing, unreadable, a directory, another error of opening it) end it
// with slurp's message, the first two reworded.
func fetchProbeResult(v shared.Verdict, a tasks.Values, src string, become bool, out transport.Result) (tasks.Result, bool) {
	failOnMissing := a.Bool("fail_on_missing")
	st, isDir := v["st"], v["isdir"] == "1"
	if !become && st != "" && st != shared.ENOENT {
		msg := fmt.Sprintf("Failed to get information on remote file (%s): %s", src, st)
		if failOnMissing {
			res, _ := shared.FailWith(msg, map[string]any{"file": src})
			return res, true
		}
		return tasks.Result{Msg: msg + ", ignored", Data: map[string]any{"file": src}}, true
	}
	if !become && st == "" && isDir {
		msg := "remote file is a directory, fetch cannot work on directories"
		if failOnMissing {
			res, _ := shared.FailWith(msg, nil)
			return res, true
		}
		return tasks.Result{Msg: msg + ", not transferring, ignored", Data: map[string]any{}}, true
	}
	e := v["oe"]
	if e == "" && isDir {
		e = shared.EISDIR
	}
	if e != "" {
		msg := slurpError(e, src)
		replaced := true
		switch {
		case strings.Contains(msg, "not found"):
			msg = "the remote file does not exist, not transferring, ignored"
		case strings.HasPrefix(msg, "source is a directory"):
			msg = "remote file is a directory, fetch cannot work on directories"
		default:
			replaced = false
		}
		if failOnMissing {
			res, _ := shared.FailWith(msg, nil)
			return res, true
		}
		res := tasks.Result{Data: map[string]any{"file": src}}
		if replaced {
			res.Msg = msg
		}
		return res, true
	}
	if v["sum"] == "" {
		res, _ := shared.FailWith(shared.ScriptError(out), nil)
		return res, true
	}
	return tasks.Result{}, false
}

// storeFetched writes what body gives to a temporary file beside dest,
// checks its SHA-1 against the host's (remote) when validate is set, and
// renames it over dest, keeping an existing dest's mode.
func storeFetched(body func(io.Writer) error, src, dest, remote string, validate bool) (tasks.Result, error) {
	failed := func(err error) (tasks.Result, error) {
		return shared.FailWith(fmt.Sprintf("Failed to fetch the file: %v", err), nil)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return failed(err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), ".tender-fetch-*")
	if err != nil {
		return failed(err)
	}
	defer os.Remove(tmp.Name())
	h := sha1.New()
	err = body(io.MultiWriter(tmp, h))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return failed(err)
	}
	got := hex.EncodeToString(h.Sum(nil))
	if validate && got != remote {
		return shared.FailWith("checksum mismatch", map[string]any{"md5sum": fileMD5(tmp.Name()), "file": src, "dest": dest,
			"remote_md5sum": nil, "checksum": got, "remote_checksum": remote})
	}
	perm := os.FileMode(0o644) // what Python's open() makes under the usual umask
	if fi, err := os.Stat(dest); err == nil {
		perm = fi.Mode().Perm()
	}
	os.Chmod(tmp.Name(), perm)
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return failed(err)
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
