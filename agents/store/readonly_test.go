package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/agents"
)

// readOnlyLedger writes a ledger with one deployment at dir/l.db, closed
// (so no -wal or -shm file is left beside it).
func readOnlyLedger(t *testing.T, dir string) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(dir, "l.db")
	w := open(t, path)
	id, err := w.StartDeployment(ctx, agents.DeploymentRecord{Host: "h1", Agent: "a", Reason: "new"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.FinishDeployment(ctx, id, agents.OutcomeOK, "", []agents.FileRecord{{Path: "/x", MD5: "aa", Version: "1"}}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Fatalf("%s left after close", path+suffix)
		}
	}
	return path
}

// checkReadable reads the ledger at path as status and history do.
func checkReadable(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	s, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("a ledger we may only read: %v", err)
	}
	defer s.Close()
	if files, ok, err := s.Deployed(ctx, "h1", "a"); !ok || err != nil || len(files) != 1 || files[0].MD5 != "aa" {
		t.Errorf("Deployed: %v %v %v", files, ok, err)
	}
	if _, deps, err := s.History(ctx, "", 10); err != nil || len(deps) != 1 {
		t.Errorf("History: %v %v", deps, err)
	}
}

// TestOpenReadOnlyWithoutWriteAccess: a ledger in a directory we may not
// write to (so SQLite cannot make the WAL index it wants beside it) is
// still readable by status and history.
func TestOpenReadOnlyWithoutWriteAccess(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere; TestOpenReadOnlyWithoutWALIndex covers this as root")
	}
	dir := t.TempDir()
	path := readOnlyLedger(t, dir)
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	checkReadable(t, path)
}

// TestOpenReadOnlyWithoutWALIndex: when the write-ahead log and its index
// (-wal, -shm) cannot be created beside the ledger (here directories are
// in their way, which stops root too), the ledger is still readable, and
// nothing is created.
func TestOpenReadOnlyWithoutWALIndex(t *testing.T) {
	dir := t.TempDir()
	path := readOnlyLedger(t, dir)
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Mkdir(path+suffix, 0o500); err != nil {
			t.Fatal(err)
		}
	}
	checkReadable(t, path)
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("reading created files: %v", entries)
	}
}

// TestOpenReadOnlyRefusesUnreadableLog: when the write-ahead log holds
// changes that SQLite cannot read (its index unreadable, none can be
// made), the ledger is refused with a message saying why, rather than
// read without its latest changes.
func TestOpenReadOnlyRefusesUnreadableLog(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads and writes anywhere")
	}
	dir := t.TempDir()
	path := readOnlyLedger(t, dir)
	if err := os.WriteFile(path+"-wal", []byte("changes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"-shm", nil, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	_, err := OpenReadOnly(context.Background(), path)
	if err == nil || !strings.Contains(err.Error(), "write-ahead log") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("want an error naming the log and the directory, got %v", err)
	}
}
