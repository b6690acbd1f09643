package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents/store"
)

// runHistoryRoundTrip: a run and its results, added in batches, read
// back in order from another connection; the list is newest first and
// shows a running run; pruning keeps the newest and drops the others'
// results; an unknown ID is ErrNoRun.
func runHistoryRoundTrip(t *testing.T, open Opener) {
	ctx := context.Background()
	a, b := open(t), open(t)
	var ids []int64
	for i := range 3 {
		id, err := a.StartRun(ctx, store.Run{Kind: "play", Command: "tender play site.yml", Login: "ops", Controller: "ctl-1", Playbooks: fmt.Sprintf("site%d.yml", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	at := time.Unix(1700000000, 5)
	batch := func(from, n int) []store.RunResult {
		var rs []store.RunResult
		for i := from; i < from+n; i++ {
			rs = append(rs, store.RunResult{Play: "p", Task: fmt.Sprintf("t%d", i), Host: "h", Status: "ok", Msg: "m", At: at})
		}
		return rs
	}
	if err := a.AddRunResults(ctx, ids[0], batch(0, 3)); err != nil {
		t.Fatal(err)
	}
	if err := b.AddRunResults(ctx, ids[0], batch(3, 2)); err != nil {
		t.Fatal(err)
	}
	if err := a.FinishRun(ctx, ids[0], "failed", `{"h":{"ok":5}}`); err != nil {
		t.Fatal(err)
	}
	r, rs, err := b.RunResults(ctx, ids[0])
	if err != nil || r.Status != "failed" || r.Recap != `{"h":{"ok":5}}` || r.Finished.IsZero() || r.Started.IsZero() || r.Login != "ops" || r.Playbooks != "site0.yml" {
		t.Fatalf("run %+v %v", r, err)
	}
	if len(rs) != 5 || rs[0].Task != "t0" || rs[4].Task != "t4" || !rs[2].At.Equal(at) {
		t.Fatalf("results %+v", rs)
	}
	runs, err := b.Runs(ctx, 2)
	if err != nil || len(runs) != 2 || runs[0].ID != ids[2] || runs[0].Status != "running" || !runs[0].Finished.IsZero() {
		t.Fatalf("runs %+v %v", runs, err)
	}
	if n, err := a.PruneRuns(ctx, 1); err != nil || n != 2 {
		t.Fatalf("prune: %d %v", n, err)
	}
	if _, _, err := b.RunResults(ctx, ids[0]); !errors.Is(err, store.ErrNoRun) {
		t.Fatalf("a pruned run: %v", err)
	}
	if runs, _ := b.Runs(ctx, 0); len(runs) != 1 || runs[0].ID != ids[2] {
		t.Fatalf("after pruning: %+v", runs)
	}
}
