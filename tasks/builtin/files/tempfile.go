package files

import (
	"context"
	"crypto/rand"
	_ "embed"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// tempfileModule creates a temporary file (mode 0600) or directory (0700)
// on the host in one round trip, named as Python's tempfile names them:
// prefix, eight random characters, suffix. Like Ansible's, it does not
// run in check mode.
type tempfileModule struct{}

var _ tasks.Module = (*tempfileModule)(nil)

var tempfileArgs = &tasks.Spec{
	Module: "tempfile",
	Params: []tasks.Param{
		{Name: "state", Default: "file", Choices: []string{"file", "directory"}},
		{Name: "path", Kind: tasks.Path},
		{Name: "prefix", Default: "ansible."},
		{Name: "suffix", Default: ""},
	},
}

// tempfileScript tries each name in $names (newline-separated) under $dir
// and creates the first that does not exist yet, exclusively.
//
//go:embed tempfile.sh
var tempfileScript string

// tempNameChars are the characters of Python's tempfile names.
const tempNameChars = "abcdefghijklmnopqrstuvwxyz0123456789_"

// Run creates the file or directory.
func (tempfileModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := tempfileArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	if env.Check {
		return tasks.Result{Skipped: true, Msg: "remote module (tempfile) does not support check mode", Data: map[string]any{}}, nil
	}
	var names []string
	for i := 0; i < 16; i++ {
		b := make([]byte, 8)
		rand.Read(b)
		for k := range b {
			b[k] = tempNameChars[int(b[k])%len(tempNameChars)]
		}
		names = append(names, string(b))
	}
	script := fmt.Sprintf("%s%sdir=%s\npre=%s\nsuf=%s\nisdir=%s\nnames=%s\n%s", shared.ShFuncs, shared.AttrFuncs,
		shared.ShPath(a.Str("path")), shared.Q(a.Str("prefix")), shared.Q(a.Str("suffix")), shared.BoolFlag(a.Str("state") == "directory"),
		shared.Q(strings.Join(names, " ")), tempfileScript)
	out, err := shared.Run(ctx, env, script, nil)
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(out.Stdout)
	if v["failed"] == "1" || v["path"] == "" {
		msg := strings.TrimSpace(v["msg"])
		if msg == "" {
			msg = shared.ScriptError(out)
		}
		return shared.FailWith(msg, nil)
	}
	data := map[string]any{"path": v["path"]}
	shared.InfoData(data, v, "")
	return tasks.Result{Changed: true, Data: data}, nil
}

func (tempfileModule) Spec() *tasks.Spec { return tempfileArgs }
