package store_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
)

// leaseChildEnv makes the test binary a lease racer (leaseChild) instead
// of running tests: the second controller process of
// TestLeaseRaceAcrossProcesses.
const leaseChildEnv = "TENDER_STORE_LEASE_CHILD"

const childKeys = 30

// leaseChild opens the ledger at $TENDER_STORE_LEASE_CHILD, waits until
// the start time in $TENDER_STORE_LEASE_START (Unix ns) so that every
// child races at once, tries to lease h0…h29 for its own owner and
// prints "won HOST" for each lease it got.
func leaseChild() int {
	ctx := context.Background()
	s, err := store.OpenState(ctx, os.Getenv(leaseChildEnv), false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	at, _ := strconv.ParseInt(os.Getenv("TENDER_STORE_LEASE_START"), 10, 64)
	time.Sleep(time.Until(time.Unix(0, at)))
	owner := fmt.Sprintf("child-%d", os.Getpid())
	for k := range childKeys {
		ok, _, err := s.Lease(ctx, fmt.Sprintf("h%d", k), "a", owner, time.Hour, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if ok {
			fmt.Printf("won h%d\n", k)
		}
	}
	return 0
}

// TestLeaseRaceAcrossProcesses: this process holds every lease, briefly,
// and starts a deploy on each host; once they expire, three other
// processes race for them at once. Each lease goes to one process, and
// this one's writes are fenced: it records no files.
func TestLeaseRaceAcrossProcesses(t *testing.T) {
	for name, fresh := range map[string]func(t *testing.T) string{
		"SQLite":     func(t *testing.T) string { return t.TempDir() + "/l.db" },
		"PostgreSQL": pgDatabase,
	} {
		t.Run(name, func(t *testing.T) { leaseRace(t, fresh(t)) })
	}
}

func leaseRace(t *testing.T, state string) {
	ctx := context.Background()
	s := closeWith(t, func() (store.Ledger, error) { return store.OpenState(ctx, state, false) })
	const ttl = 1500 * time.Millisecond
	ids := map[string]int64{}
	for k := range childKeys {
		host := fmt.Sprintf("h%d", k)
		if ok, _, err := s.Lease(ctx, host, "a", "parent", ttl, nil); !ok || err != nil {
			t.Fatalf("%s: %v %v", host, ok, err)
		}
		id, err := s.StartDeployment(ctx, agents.DeploymentRecord{Host: host, Agent: "a", Reason: "new", Owner: "parent"})
		if err != nil {
			t.Fatal(err)
		}
		ids[host] = id
	}
	start := time.Now().Add(ttl + 500*time.Millisecond)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := map[string][]string{}
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), leaseChildEnv+"="+state, fmt.Sprintf("TENDER_STORE_LEASE_START=%d", start.UnixNano()))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("child %d: %v\n%s", i, err, stderr.String())
				return
			}
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				if host, ok := strings.CutPrefix(sc.Text(), "won "); ok {
					mu.Lock()
					wins[host] = append(wins[host], fmt.Sprint("child ", i))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for host, id := range ids {
		if w := wins[host]; len(w) != 1 {
			t.Errorf("%s leased by %v, want exactly one process", host, w)
		}
		err := s.FinishDeployment(ctx, id, agents.OutcomeOK, "", []agents.FileRecord{{Path: "/x", MD5: "aa"}})
		if !errors.Is(err, agents.ErrLeaseLost) {
			t.Errorf("%s: the expired owner recorded its deploy after %v took over: %v", host, wins[host], err)
		}
		if _, ok, _ := s.Deployed(ctx, host, "a"); ok {
			t.Errorf("%s: files recorded by the fenced owner", host)
		}
	}
}
