package shared

import (
	"context"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/transport"
)

// cmdRecorder is a connection that records the Cmd it is asked to run
// and answers with out.
type cmdRecorder struct {
	transport.Conn
	got transport.Cmd
	out string
}

func (c *cmdRecorder) Run(_ context.Context, cmd transport.Cmd) (transport.Result, error) {
	c.got = cmd
	return transport.Result{Stdout: []byte(c.out)}, nil
}

// TestRunSplit: a script whose output SplitOutput reads tells the
// transport that its lines up to OutputMark are its own (so the SSH
// transport copies them without a program), and SplitOutput splits at
// that same line.
func TestRunSplit(t *testing.T) {
	out := "verdict=ran\nrc=0\n" + OutputMark + "\nbin\x00ary\n"
	for name, run := range map[string]func(*tasks.Env) (transport.Result, error){
		"RunSplit": func(env *tasks.Env) (transport.Result, error) {
			return RunSplit(context.Background(), env, "echo", nil)
		},
		"RunSplitLib": func(env *tasks.Env) (transport.Result, error) {
			return RunSplitLib(context.Background(), env, Lib{Pieces: []string{"f() { :; }\n"}, Script: "f"}, nil)
		},
	} {
		c := &cmdRecorder{out: out}
		res, err := run(&tasks.Env{Conn: c})
		if err != nil {
			t.Fatal(err)
		}
		if c.got.LinesUntil != OutputMark || c.got.Lines || c.got.Script == "" {
			t.Errorf("%s ran %+v, want LinesUntil %q", name, c.got, OutputMark)
		}
		v, rest := SplitOutput(res.Stdout)
		if v["verdict"] != "ran" || v["rc"] != "0" || rest != "bin\x00ary\n" {
			t.Errorf("%s: SplitOutput gave %v and %q", name, v, rest)
		}
	}
}
