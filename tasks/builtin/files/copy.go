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
		{Name: "force", Kind: tasks.Bool, Default: true},
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

// Run copies: the job decoded, its source read (a controller directory
// goes to copyTree), its checksum checked, and the job run.
func (copyModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	if msg := copyArgsMissing(args); msg != "" {
		return shared.Fail(msg), nil
	}
	a, err := copyArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	j, fail := decodeCopy(env, args, a)
	if fail != nil {
		return *fail, nil
	}
	switch {
	case a.Has("content"):
		copyContent(&j, a)
	case j.Remote:
		j.Source, j.Base = a.Str("src"), path.Base(a.Str("src"))
	default:
		local, fi, fail, err := findCopySource(env, a.Str("src"))
		if err != nil || fail != nil {
			return shared.EndWith(fail, err)
		}
		if fi.IsDir() {
			return copyTree(ctx, env, a, local, j)
		}
		if fail := loadCopySource(env, &j, local, fi, a.Bool("decrypt")); fail != nil {
			return *fail, nil
		}
	}
	if fail := checkCopySum(&j, a.Str("checksum")); fail != nil {
		return *fail, nil
	}
	return j.Run(ctx, env)
}

// copyArgsMissing is the failure message for raw arguments without a dest
// ("" when there is one): Ansible's copy action names a missing src before
// a missing dest.
func copyArgsMissing(args tasks.Args) string {
	if args["dest"] != nil {
		return ""
	}
	if (args["src"] == nil || tasks.ToText(args["src"]) == "") && args["content"] == nil {
		return "src (or content) is required"
	}
	return "dest is required"
}

// decodeCopy builds the copy job the decoded arguments a (and the raw
// args, for whether local_follow was given) ask for, or the failure copy
// gives without src or content, for a mode it cannot read, or with an
// empty dest.
func decodeCopy(env *tasks.Env, args tasks.Args, a tasks.Values) (shared.CopyJob, *tasks.Result) {
	failed := func(msg string) (shared.CopyJob, *tasks.Result) {
		r := shared.Fail(msg)
		return shared.CopyJob{}, &r
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
		Remote: a.Bool("remote_src"), Check: env.Check, Diff: env.Diff, Se: shared.AttrAssign(a),
		Unsafe: a.Bool("unsafe_writes"), UnsafeEnv: args["unsafe_writes"] == nil, Follow: a.Bool("follow"),
		Lfollow: args["local_follow"] != nil && a.Bool("local_follow"),
	}
	if j.Dest == "" {
		return failed("dest is required")
	}
	return j, nil
}

// copyContent makes content the job's bytes: a string as it is, a
// boolean or number as Python's str() writes it (content: yes writes
// True), anything else as JSON; template names the file its content came
// from, so a directory dest gets it under that name.
func copyContent(j *shared.CopyJob, a tasks.Values) {
	j.Base = a.Str("_original_basename")
	switch c := a["content"].(type) {
	case string:
		j.Content = []byte(c)
		j.FromContent = true
	case bool, int, int64, float64:
		j.Content = []byte(shared.PyToStr(c))
		j.FromContent = true
	default:
		j.Content = []byte(shared.PyJSON(c))
		j.FromContent = true
	}
}

// findCopySource finds the controller's src as Ansible finds files,
// checks it against the sandbox and stats it; a failed result when it
// cannot be found or read.
func findCopySource(env *tasks.Env, src string) (string, os.FileInfo, *tasks.Result, error) {
	local, err := env.FindFile("files", src)
	if err != nil {
		r := shared.Fail(err.Error())
		return "", nil, &r, nil
	}
	if err := env.Sandbox.CheckRead(local); err != nil {
		return "", nil, nil, err
	}
	fi, err := os.Stat(local)
	if err != nil {
		r := shared.Fail(fmt.Sprintf("could not find src=%s, %v", local, err))
		return "", nil, &r, nil
	}
	return local, fi, nil, nil
}

// loadCopySource puts the controller file local (fi its stat) into the
// job: decrypted when vault-encrypted and decrypt is on, by path when
// larger than shared.InlineMax, else read whole; with preserve, its mode.
// A failed result when it cannot be read or decrypted.
func loadCopySource(env *tasks.Env, j *shared.CopyJob, local string, fi os.FileInfo, decrypt bool) *tasks.Result {
	failed := func(msg string) *tasks.Result {
		r := shared.Fail(msg)
		return &r
	}
	vaulted := vaultRefusal(env, local) != "" && decrypt
	if vaulted && env.Decrypt == nil {
		return failed(vaultRefusal(env, local))
	}
	j.Base, j.LocalPath = path.Base(local), local
	if j.Mode == "preserve" {
		j.Mode = fmt.Sprintf("%o", fi.Mode().Perm())
	}
	var err error
	if vaulted {
		if j.Content, err = decryptFile(env, local); err != nil {
			return failed(err.Error())
		}
	} else if fi.Size() > shared.InlineMax {
		j.Local = local
		if j.Sum, err = shared.FileSHA1(env.Sandbox, local); err != nil {
			return failed(err.Error())
		}
	} else if j.Content, err = env.Sandbox.ReadFile(local); err != nil {
		return failed(err.Error())
	}
	return nil
}

// checkCopySum sums the job's bytes when it holds them and fails when the
// checksum argument (want, "" for none) names another sum.
func checkCopySum(j *shared.CopyJob, want string) *tasks.Result {
	if j.Content != nil {
		s := sha1.Sum(j.Content)
		j.Sum = hex.EncodeToString(s[:])
	}
	if want != "" && j.Sum != "" && want != j.Sum {
		r := shared.Fail(fmt.Sprintf("Copied file does not match the expected checksum. Transfer failed. (expected %s, got %s)", want, j.Sum))
		return &r
	}
	return nil
}

func (copyModule) Spec() *tasks.Spec { return copyArgs }
