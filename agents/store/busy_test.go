package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestManyWritersAtOnce: many of this process's write transactions at
// once, together longer than the busy timeout (a rollout's forks taking
// leases on a loaded controller), wait their turn instead of failing with
// "database is locked".
func TestManyWritersAtOnce(t *testing.T) {
	defer func(d time.Duration) { busyTimeout = d }(busyTimeout)
	busyTimeout = 100 * time.Millisecond
	s := open(t, filepath.Join(t.TempDir(), "ledger.db"))
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.tx(context.Background(), func(_ context.Context, tx *sql.Tx) error {
				time.Sleep(30 * time.Millisecond) // 10 × 30 ms: three times the busy timeout
				_, err := tx.Exec("UPDATE leases SET expires = expires WHERE 0")
				return err
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
