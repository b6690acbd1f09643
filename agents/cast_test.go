package agents_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision"
)

// A cast job runs in the background; another Caller (a restarted
// controller) reads it by its ID, waits for it, and forgets it.
func TestCastSurvivesTheCaller(t *testing.T) {
	ctx := context.Background()
	async := t.TempDir()
	tg := provision.Target{Name: "here", Connection: "local", Vars: map[string]any{"ansible_async_dir": async}}
	gate := filepath.Join(t.TempDir(), "gate")
	job, err := newCaller(t).Cast(ctx, tg, "shell", map[string]any{"cmd": "while [ ! -e " + gate + " ]; do sleep 0.05; done; echo out; echo err >&2; exit 3"})
	if err != nil {
		t.Fatal(err)
	}
	again := newCaller(t).Job(tg, job.ID)
	if res, done, err := again.Status(ctx); err != nil || done {
		t.Fatalf("running job: %+v %v %v", res, done, err)
	}
	os.WriteFile(gate, nil, 0o600)
	res, err := again.Wait(ctx, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if res.Data["rc"] != 3 || res.Data["stdout"] != "out" || res.Data["stderr"] != "err" || res.Msg != "non-zero return code" || res.Status != provision.StatusFailed {
		t.Fatalf("outcome: %+v", res)
	}
	if stopped, err := again.Cancel(ctx); err != nil || stopped {
		t.Fatalf("cancel an ended job: %v %v", stopped, err)
	}
	if err := again.Forget(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := again.Status(ctx); err == nil || !strings.Contains(err.Error(), "could not find job") {
		t.Fatalf("forgotten job: %v", err)
	}
}

// Cancel stops a job and what it started; the job ends with rc 143.
func TestCastCancel(t *testing.T) {
	ctx := context.Background()
	tg := provision.Target{Name: "here", Connection: "local", Vars: map[string]any{"ansible_async_dir": t.TempDir()}}
	mark := filepath.Join(t.TempDir(), "child")
	c := newCaller(t)
	job, err := c.Cast(ctx, tg, "shell", map[string]any{"cmd": "sh -c 'echo $$ > " + mark + "; exec sleep 60'; echo never"})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(mark); len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the job did not start")
		}
	}
	if stopped, err := job.Cancel(ctx); err != nil || !stopped {
		t.Fatalf("cancel: %v %v", stopped, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := job.Wait(wctx, 20*time.Millisecond)
	if err != nil || res.Data["rc"] != 143 || strings.Contains(res.Data["stdout"].(string), "never") {
		t.Fatalf("cancelled job: %+v %v", res, err)
	}
	b, _ := os.ReadFile(mark)
	if pid := strings.TrimSpace(string(b)); pid != "" {
		// Gone, or a zombie nobody reaped yet.
		if stat, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil && !strings.Contains(string(stat), ") Z ") {
			t.Errorf("the job's child %s still runs: %s", pid, stat)
		}
	}
	if _, err := c.Cast(ctx, tg, "copy", map[string]any{"content": "x", "dest": "/tmp/x"}); err == nil || !strings.Contains(err.Error(), "cannot run in the background") {
		t.Fatalf("cast copy: %v", err)
	}
}

// A job id that is not one Cast gives is refused before the target is
// touched: it names files there.
func TestJobIDRefused(t *testing.T) {
	c := newCaller(t)
	for _, id := range []string{"", "../../etc/passwd", ".hidden", "a b", strings.Repeat("j", 200)} {
		j := c.Job(here, id)
		if _, _, err := j.Status(context.Background()); err == nil || !strings.Contains(err.Error(), "want one Cast gave") {
			t.Errorf("%q: status %v", id, err)
		}
		if _, err := j.Cancel(context.Background()); err == nil {
			t.Errorf("%q: cancel", id)
		}
		if err := j.Forget(context.Background()); err == nil {
			t.Errorf("%q: forget", id)
		}
	}
}
