package control

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks"
)

func TestPause(t *testing.T) {
	t.Parallel()
	start := time.Now()
	res, err := pauseModule{}.Run(context.Background(), nil, tasks.Args{"seconds": "0.2"})
	if err != nil || res.Failed {
		t.Fatalf("pause: %v %+v", err, res)
	}
	if took := time.Since(start); took < time.Second {
		t.Errorf("a pause shorter than one second lasted %v; Ansible waits one second", took)
	}
	if out := res.Data["stdout"]; !strings.HasPrefix(out.(string), "Paused for 1.0") || !strings.HasSuffix(out.(string), " seconds") {
		t.Errorf("stdout %q", out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := (pauseModule{}).Run(ctx, nil, tasks.Args{"minutes": 5}); err == nil {
		t.Error("a cancelled pause did not return an error")
	}
	if _, err := (pauseModule{}).Run(context.Background(), nil, tasks.Args{"minutes": 1, "seconds": 1}); err == nil || !strings.Contains(err.Error(), "mutually exclusive") {
		t.Errorf("minutes and seconds together: %v", err)
	}
}

// TestPausePrompt: a pause without a duration does not wait when stdin
// is not a terminal, warning as Ansible does, and is refused when it is
// (tender does not read the answer). Not parallel: it swaps
// stdinInteractive.
func TestPausePrompt(t *testing.T) {
	defer func(f func() bool) { stdinInteractive = f }(stdinInteractive)
	stdinInteractive = func() bool { return false }
	res, err := pauseModule{}.Run(context.Background(), nil, tasks.Args{"prompt": "continue?", "echo": false})
	if err != nil || res.Failed || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "stdin is not interactive") ||
		res.Data["user_input"] != "" || res.Data["stdout"] != "Paused for 0.0 minutes" || res.Data["echo"] != false {
		t.Errorf("no terminal: %v %+v", err, res)
	}
	stdinInteractive = func() bool { return true }
	res, err = pauseModule{}.Run(context.Background(), nil, tasks.Args{"prompt": "continue?"})
	if err != nil || !res.Failed || !strings.Contains(res.Msg, "give seconds or minutes") {
		t.Errorf("a terminal: %v %+v", err, res)
	}
}
