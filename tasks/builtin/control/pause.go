package control

import (
	"context"
	"fmt"
	"math"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// pauseModule waits for seconds or minutes on the controller, as Ansible's
// pause does; it changes nothing anywhere. A prompt that waits for an
// operator's answer does not wait when stdin is not a terminal (a warning
// says so, as Ansible's), and is refused when it is: tender does not read
// the operator's answer, so such a pause must have a duration.
type pauseModule struct{}

var _ tasks.Module = (*pauseModule)(nil)

var pauseArgs = &tasks.Spec{
	Module: "pause",
	Params: []tasks.Param{
		{Name: "seconds", Kind: tasks.Float},
		{Name: "minutes", Kind: tasks.Float},
		{Name: "prompt"},
		{Name: "echo", Kind: tasks.Bool, Default: true},
	},
	MutuallyExclusive: [][]string{{"minutes", "seconds"}},
}

// Run sleeps, or returns early with an error when ctx ends.
func (pauseModule) Run(ctx context.Context, _ *tasks.Env, args tasks.Args) (tasks.Result, error) {
	a, err := pauseArgs.Decode(args)
	if err != nil {
		return tasks.Result{}, err
	}
	var secs int
	unit := "seconds"
	switch {
	case a.Has("minutes"):
		secs, unit = int(a.Float("minutes"))*60, "minutes"
	case a.Has("seconds"):
		secs = int(a.Float("seconds"))
	case !stdinInteractive():
		now := time.Now()
		return tasks.Result{Warnings: []string{"Not waiting for response to prompt as stdin is not interactive"},
			Data: map[string]any{"rc": 0, "stdout": "Paused for 0.0 minutes", "stderr": "", "user_input": "", "echo": a.Bool("echo"),
				"start": shared.PyTime(now), "stop": shared.PyTime(now), "delta": 0}}, nil
	default:
		return tasks.Result{Failed: true, Msg: "pause without seconds or minutes waits for an operator's input, which tender does not read: give seconds or minutes",
			Data: map[string]any{"rc": 0, "stdout": "", "stderr": "", "user_input": "", "echo": a.Bool("echo")}}, nil
	}
	secs = max(secs, 1) // Ansible's shortest pause is one second
	start := time.Now()
	select {
	case <-ctx.Done():
		return tasks.Result{}, ctx.Err()
	case <-time.After(time.Duration(secs) * time.Second):
	}
	stop := time.Now()
	took := stop.Sub(start).Seconds()
	if unit == "minutes" {
		took /= 60
	}
	return tasks.Result{Data: map[string]any{
		"rc": 0, "stderr": "", "user_input": "", "echo": a.Bool("echo"),
		"start": shared.PyTime(start), "stop": shared.PyTime(stop), "delta": int(stop.Sub(start).Seconds()),
		"stdout": fmt.Sprintf("Paused for %s %s", pyfmt.Float(math.Round(took*100)/100), unit),
	}}, nil
}

func (pauseModule) Spec() *tasks.Spec { return pauseArgs }

// stdinInteractive reports whether the controller's stdin is a terminal
// an operator could answer a prompt on.
var stdinInteractive = func() bool { return term.IsTerminal(int(os.Stdin.Fd())) }
