package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
)

// TestWritesShareTransactions: 300 hosts taking their leases at once share
// transactions (fewer commits than writes); a write that fails among them
// undoes only itself; each caller returns once its write committed.
func TestWritesShareTransactions(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "ledger.db"))
	w0, c0 := s.WriteStats()
	var wg sync.WaitGroup
	errs := make([]error, 300)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%50 == 7 { // a deployment that does not exist
				errs[i] = s.FinishDeployment(ctx, 999999, agents.OutcomeOK, "", []agents.FileRecord{})
				return
			}
			ok, holder, err := s.Lease(ctx, fmt.Sprint("h", i), "a", "me", time.Hour, nil)
			if err == nil && !ok {
				err = fmt.Errorf("lease held by %s", holder)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if (i%50 == 7) != (err != nil) {
			t.Errorf("write %d: %v", i, err)
		}
	}
	w, c := s.WriteStats()
	t.Logf("%d writes in %d transactions", w-w0, c-c0)
	if w-w0 != 300 || c-c0 >= w-w0 {
		t.Errorf("%d writes in %d transactions: want 300 writes in fewer transactions", w-w0, c-c0)
	}
	// Every lease was committed: another owner finds each host held.
	for i := range errs {
		if i%50 == 7 {
			continue
		}
		if ok, holder, err := s.Lease(ctx, fmt.Sprint("h", i), "a", "other", time.Hour, nil); ok || err != nil || holder != "me" {
			t.Fatalf("h%d after the group: ok=%v holder=%q err=%v", i, ok, holder, err)
		}
	}
}

// TestWriteWhoseContextEndedIsNotRun: a write whose context ended before
// its transaction began does nothing and says why.
func TestWriteWhoseContextEndedIsNotRun(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "ledger.db"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.Lease(ctx, "h1", "a", "me", time.Hour, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("lease with an ended context: %v", err)
	}
	if ok, _, err := s.Lease(context.Background(), "h1", "a", "other", time.Hour, nil); !ok || err != nil {
		t.Errorf("the cancelled lease was taken: ok=%v err=%v", ok, err)
	}
}
