package files

import (
	"bytes"
	"context"
	"crypto/sha1"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
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

// Run unpacks the archive unless dest already holds it: the task decoded,
// creates and dest checked before anything travels, the archive sent when
// it is the controller's, and one round trip unpacks it.
func (unarchiveModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	// Ansible's action checks these before the module's own spec.
	if _, hasCopy := args["copy"]; hasCopy {
		if _, ok := args["remote_src"]; ok {
			return shared.Fail("parameters are mutually exclusive: ('copy', 'remote_src')"), nil
		}
	}
	if args["src"] == nil || args["dest"] == nil {
		return shared.Fail("src (or content) and dest are required"), nil
	}
	a, err := unarchiveArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, err := decodeUnarchive(a)
	if err != nil {
		return tasks.Result{}, err
	}
	if a.Int("io_buffer_size") == 0 {
		// Python's crc32 reads nothing with a 0-byte buffer: every zip
		// member's CRC is 0, so the archive is extracted on every run.
		return tasks.Result{}, fmt.Errorf("io_buffer_size: 0 is refused: Ansible's unarchive then reads no file when comparing a zip archive with dest and extracts it again on every run; give a positive size (it only sizes reads)")
	}
	if done, err := j.precheck(ctx, env); err != nil || done != nil {
		return shared.EndWith(done, err)
	}
	if fail, err := j.decodeLists(a); err != nil || fail != nil {
		return shared.EndWith(fail, err)
	}
	hostSrc, uploaded, fail, err := j.stage(ctx, env)
	if err != nil || fail != nil {
		return shared.EndWith(fail, err)
	}
	out, err := shared.Run(ctx, env, j.script(hostSrc, uploaded, env.Check), nil)
	if err != nil {
		return tasks.Result{}, err
	}
	return j.result(out, hostSrc), nil
}

// unarchiveJob is one unarchive task: the archive and where it goes,
// whether it is already on the host, the attributes to set and the
// members to leave out or take (exclude, include) with tar's or unzip's
// extra options (extra_opts).
type unarchiveJob struct {
	src, dest, creates           string
	mode, owner, group           string
	extra                        string // AttrAssign's lines
	remote, keepNewer, listFiles bool
	// decrypt opens a vault-encrypted controller archive (decrypt).
	decrypt bool
	lists   map[string][]string
}

// decodeUnarchive reads the task's arguments; a mode it cannot read is an
// error.
func decodeUnarchive(a tasks.Values) (unarchiveJob, error) {
	mode, err := shared.ModeArg(a["mode"])
	if err != nil {
		return unarchiveJob{}, err
	}
	return unarchiveJob{src: a.Str("src"), dest: a.Str("dest"), creates: a.Str("creates"), mode: mode, extra: shared.AttrAssign(a),
		owner: a.Str("owner"), group: a.Str("group"), remote: a.Bool("remote_src") || !a.Bool("copy"),
		keepNewer: a.Bool("keep_newer"), listFiles: a.Bool("list_files"), decrypt: a.Bool("decrypt"), lists: map[string][]string{}}, nil
}

// precheck asks the host, before anything travels (as Ansible's action
// plugin does), whether creates exists, which skips the task, and whether
// dest is a directory, without which it fails; nil when neither ends it.
// Only a controller archive or creates costs the round trip.
func (j unarchiveJob) precheck(ctx context.Context, env *tasks.Env) (*tasks.Result, error) {
	if j.creates == "" && j.remote {
		return nil, nil
	}
	out, err := shared.Run(ctx, env, shared.ShAssign([][2]string{{"creates", j.creates}, {"dest", j.dest}})+unarchivePre, nil)
	if err != nil {
		return nil, err
	}
	switch strings.TrimSpace(string(out.Stdout)) {
	case "creates":
		return &tasks.Result{Skipped: true, Msg: fmt.Sprintf("skipped, since %s exists", j.creates), Data: map[string]any{}}, nil
	case "nodest":
		r := shared.Fail(fmt.Sprintf("dest '%s' must be an existing dir", j.dest))
		return &r, nil
	}
	return nil, nil
}

// decodeLists refuses a URL as a host archive and takes exclude, include
// and extra_opts, refusing a word with a newline (the script reads them
// one per line); it runs after precheck, whose answers come first.
func (j *unarchiveJob) decodeLists(a tasks.Values) (*tasks.Result, error) {
	if j.remote && strings.Contains(j.src, "://") {
		r := shared.Fail("unarchive: a URL as src with remote_src is not supported by tender; fetch it with get_url first")
		return &r, nil
	}
	for _, k := range []string{"exclude", "include", "extra_opts"} {
		for _, w := range a.Strings(k) {
			if strings.ContainsAny(w, "\n\r") {
				return nil, fmt.Errorf("unarchive: %s holds a newline: %q", k, w)
			}
			j.lists[k] = append(j.lists[k], w)
		}
	}
	return nil, nil
}

// stage returns the archive's path on the host and, for a controller
// archive (found as Ansible finds files, checked against the sandbox and
// sent with uploadArchive; a vault-encrypted one decrypted first unless
// decrypt is off, as Ansible's action does), "1" to say the script
// removes it after.
func (j unarchiveJob) stage(ctx context.Context, env *tasks.Env) (string, string, *tasks.Result, error) {
	if j.remote {
		return j.src, "", nil, nil
	}
	local, err := env.FindFile("files", j.src)
	if err != nil {
		r := shared.Fail(err.Error())
		return "", "", &r, nil
	}
	if err := env.Sandbox.CheckRead(local); err != nil {
		return "", "", nil, err
	}
	var plain []byte
	if msg := vaultRefusal(env, local); msg != "" && j.decrypt {
		if env.Decrypt == nil {
			r := shared.Fail(msg)
			return "", "", &r, nil
		}
		if plain, err = decryptFile(env, local); err != nil {
			r := shared.Fail(err.Error())
			return "", "", &r, nil
		}
	}
	hostSrc, err := uploadArchive(ctx, env, local, plain, j.dest)
	if err != nil {
		r := shared.Fail(fmt.Sprintf("Source '%s' failed to transfer: %v", j.src, err))
		return "", "", &r, nil
	}
	return hostSrc, "1", nil, nil
}

// script is the script that unpacks the archive at hostSrc
// (unarchiveScript).
func (j unarchiveJob) script(hostSrc, uploaded string, check bool) string {
	return shared.ShAssign([][2]string{
		{"src", hostSrc}, {"dest", j.dest}, {"uploaded", uploaded}, {"excludes", strings.Join(j.lists["exclude"], "\n")},
		{"includes", strings.Join(j.lists["include"], "\n")}, {"opts", strings.Join(j.lists["extra_opts"], "\n")},
		{"keep_newer", shared.BoolFlag(j.keepNewer)}, {"mode", j.mode}, {"owner", j.owner}, {"group", j.group},
		{"_t_check", shared.BoolFlag(check)},
	}) + j.extra + unarchiveScript
}

// result turns the unpack script's output into the task's result: its
// verdict, the command it ran with that command's output, dest's
// attributes and, with list_files, the archive's members.
func (j unarchiveJob) result(out transport.Result, hostSrc string) tasks.Result {
	head, rest, _ := strings.Cut(string(out.Stdout), "\n--output--\n")
	v := shared.ParseVerdict([]byte(head))
	if v["verdict"] == "nohandler" {
		return tasks.Result{Failed: true, Data: map[string]any{}, Msg: fmt.Sprintf(
			"Failed to find handler for \"%s\". Make sure the required command to extract the file is installed.\n%s", hostSrc, noHandlerReasons(head, rest))}
	}
	data := map[string]any{"dest": j.dest, "src": hostSrc}
	if h := v["handler"]; h != "" {
		data["handler"] = h
	}
	rest = extractResults(data, head, v, rest)
	switch v["verdict"] {
	case "failed":
		if v["nodest"] == "1" {
			data = map[string]any{}
		}
		return tasks.Result{Failed: true, Msg: v["msg"], Data: data}
	case "gtarcheck":
		return tasks.Result{Skipped: true, Msg: "remote module (unarchive) does not support check mode when using gtar", Data: map[string]any{}}
	case "done":
	default:
		return tasks.Result{Failed: true, Msg: shared.ScriptError(out), RC: out.ExitCode}
	}
	shared.InfoData(data, v, "")
	if j.listFiles {
		files := []any{}
		for _, f := range strings.Split(strings.TrimSuffix(rest, "\n"), "\n") {
			if f != "" {
				files = append(files, f)
			}
		}
		data["files"] = files
	}
	return tasks.Result{Changed: v["changed"] == "1", Data: data}
}

// noHandlerReasons are the reasons each handler gave for not taking the
// archive (rest holds them one after another, each as long as a why=
// line of head says), one a line, as Ansible joins them.
func noHandlerReasons(head, rest string) string {
	var why []string
	for _, l := range strings.Split(head, "\n") {
		if n, ok := strings.CutPrefix(l, "why="); ok {
			k := min(max(shared.Atoi(n), 0), len(rest))
			why, rest = append(why, rest[:k]), rest[k:]
		}
	}
	return strings.Join(why, "\n")
}

// extractResults notes in data, when the script unpacked, the command it
// ran (the cmd= lines of head) with its rc, stdout and stderr, which open
// rest; it returns what follows them in rest, the archive's members.
func extractResults(data map[string]any, head string, v shared.Verdict, rest string) string {
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
	return rest
}

// unarchivePre answers creates and whether dest is a directory.
//
//go:embed unarchive_pre.sh
var unarchivePre string

// uploadArchive streams the controller's archive (plain, when not nil:
// its decrypted bytes) to a temporary file in dest's parent directory on
// the host (dest itself may not exist yet: the script says so) and
// returns its path.
func uploadArchive(ctx context.Context, env *tasks.Env, local string, plain []byte, dest string) (string, error) {
	var f io.ReadSeeker
	if plain != nil {
		f = bytes.NewReader(plain)
	} else {
		file, err := env.Sandbox.Open(local)
		if err != nil {
			return "", err
		}
		defer file.Close()
		f = file
	}
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
