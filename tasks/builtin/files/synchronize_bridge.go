package files

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// syncBridgeRsh is the remote shell the controller's rsync is given. rsync
// starts it as `RSH [-l user] host COMMAND...` with its stdin and stdout
// on pipes of its own; the bridge skips the login options and the host,
// writes the remote command (its words joined by spaces, as ssh hands
// them to the remote shell) to fd 5 ended by a NUL byte, and relays
// between rsync's pipes and tender's: fd 4 takes what rsync sends to the
// host, fd 3 brings what the host answers. tender runs the command over
// the task's connection. As ssh, the bridge ends when the remote command
// has ended and its output is through (rsync waits for that), not when
// rsync stops writing: the foreground cat is the one from fd 3. (The
// background one reads rsync's stdin through fd 6, as sh gives a
// background command /dev/null for its stdin.) It is sh and cat alone, so it needs no helper
// program on the controller; it holds no single quote, as rsync's own
// splitting of --rsh reads single quotes.
const syncBridgeRsh = `sh -c 'while [ "$#" -gt 0 ]; do case "$1" in -l) shift 2 ;; -*) shift ;; *) shift; break ;; esac; done; ` +
	`printf "%s\000" "$*" >&5; exec 5>&- 6<&0; cat <&6 >&4 3<&- 6<&- 2>/dev/null & exec cat <&3 4>&- 6<&-' tender-rsync-bridge`

// syncNoWindows is why synchronize is refused on a Windows controller.
const syncNoWindows = "synchronize runs rsync on the controller through a POSIX shell bridge, which a Windows controller does not have; delegate the task to a Unix host (delegate_to), or run tender from WSL"

// syncOnController runs rsync on the controller, its remote side (if
// any) over the task's connection through the bridge.
func syncOnController(ctx context.Context, env *tasks.Env, a tasks.Values, plan syncPlan) (tasks.Result, error) {
	if runtime.GOOS == "windows" {
		return shared.Fail(syncNoWindows), nil
	}
	rsync, fail := syncRsyncPath(env)
	if fail != "" {
		return shared.Fail(fail), nil
	}
	line, fail := syncCmdLine(a, rsync, plan.src, plan.dest, syncBridgeRsh, plan.rsyncPath, env.Check)
	if fail != "" {
		return shared.Fail(fail), nil
	}
	argv, err := syncArgv(line.Cmd)
	if err != nil {
		return shared.Fail(err.Error()), nil
	}
	rc, stdout, stderr, err := syncRunBridged(ctx, env.Conn, argv)
	if err != nil {
		return tasks.Result{}, err
	}
	return syncResult(line, rc, stdout, stderr, env.Diff), nil
}

// syncRunBridged runs argv on the controller with the bridge's three
// pipes as fds 3, 4 and 5, and the remote command the bridge hands over
// (when rsync starts it) through conn. It returns rsync's exit status
// and output; what the remote command wrote to its stderr comes first in
// stderr, as ssh would have passed it on. An error means rsync could not
// start or the connection broke.
func syncRunBridged(ctx context.Context, conn transport.Conn, argv []string) (int, string, string, error) {
	downR, downW, err := os.Pipe() // the host's answers, to rsync
	if err != nil {
		return 0, "", "", err
	}
	upR, upW, err := os.Pipe() // what rsync sends, to the host
	if err != nil {
		downR.Close()
		downW.Close()
		return 0, "", "", err
	}
	argR, argW, err := os.Pipe() // the remote command
	if err != nil {
		for _, f := range []*os.File{downR, downW, upR, upW} {
			f.Close()
		}
		return 0, "", "", err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "LANG=C", "LC_ALL=C", "LC_MESSAGES=C")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.ExtraFiles = []*os.File{downR, upW, argW}
	cmd.WaitDelay = 10 * time.Second
	startErr := cmd.Start()
	// The child ends are rsync's (and its bridge's) now.
	downR.Close()
	upW.Close()
	argW.Close()
	if startErr != nil {
		downW.Close()
		upR.Close()
		argR.Close()
		return 0, "", "", startErr
	}
	type remote struct {
		res transport.Result
		err error
	}
	done := make(chan remote, 1)
	go func() {
		defer downW.Close()
		defer upR.Close()
		defer argR.Close()
		script, err := bufio.NewReader(argR).ReadString(0)
		if err != nil {
			// rsync ended without starting its remote shell.
			done <- remote{}
			return
		}
		res, err := transport.Stream(ctx, conn, transport.Cmd{Script: strings.TrimSuffix(script, "\x00"), Stdin: upR}, downW)
		done <- remote{res, err}
	}()
	waitErr := cmd.Wait()
	r := <-done
	if r.err != nil && !errors.Is(r.err, context.Canceled) {
		return 0, "", "", r.err
	}
	rc := 0
	if waitErr != nil {
		var ee *exec.ExitError
		if !errors.As(waitErr, &ee) {
			return 0, "", "", waitErr
		}
		rc = ee.ExitCode()
	}
	errText := stderr.String()
	if len(r.res.Stderr) > 0 {
		errText = string(r.res.Stderr) + errText
	}
	return rc, stdout.String(), errText, nil
}
