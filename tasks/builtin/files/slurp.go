package files

import (
	"context"
	_ "embed"
	"encoding/base64"
	"fmt"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// slurpModule returns a host file's bytes, base64-encoded, in one round
// trip, as Ansible's slurp: content, source and encoding.
type slurpModule struct{}

var _ tasks.Module = (*slurpModule)(nil)

var slurpArgs = &tasks.Spec{
	Module: "slurp",
	Params: []tasks.Param{{Name: "src", Kind: tasks.Path, Required: true, Aliases: []string{"path"}}},
}

// slurpScript prints why $p cannot be read (err=, the error text of
// opening it), or its bytes after a "--content--" line.
//
//go:embed slurp.sh
var slurpScript string

// Run reads the file.
func (slurpModule) Run(ctx context.Context, env *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := slurpArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	src := a.Str("src")
	// Direct: cat and the programs that find an error never outlive the
	// script, so its bytes go straight into the answer.
	out, err := env.Conn.Run(ctx, transport.Cmd{Script: fmt.Sprintf("%sp=%s\n%s", shared.ShFuncs, shared.ShPath(src), slurpScript), Direct: true})
	if err != nil {
		return tasks.Result{}, err
	}
	v := shared.ParseVerdict(shared.BeforeMarker(out.Stdout))
	if msg := slurpError(v["err"], src); msg != "" {
		return tasks.Result{Failed: true, Msg: msg, Data: map[string]any{}}, nil
	}
	if v["ok"] != "1" || out.ExitCode != 0 {
		return tasks.Result{Failed: true, Msg: "unable to slurp file: " + shared.ScriptError(out), Data: map[string]any{}}, nil
	}
	content, _ := shared.Section(out.Stdout, "content", "")
	return tasks.Result{Data: map[string]any{
		"content":  base64.StdEncoding.EncodeToString([]byte(content)),
		"source":   src,
		"encoding": "base64",
	}}, nil
}

func (slurpModule) Spec() *tasks.Spec { return slurpArgs }

// slurpError is slurp's message when opening src failed with the error
// text e (none when e is empty): the three errors it names, and Python's
// text of any other.
func slurpError(e, src string) string {
	switch e {
	case "":
		return ""
	case shared.ENOENT:
		return "file not found: " + src
	case shared.EACCES:
		return "file is not readable: " + src
	case shared.EISDIR:
		return "source is a directory and must be a file: " + src
	}
	return "unable to slurp file: " + shared.OSError(e, src)
}
