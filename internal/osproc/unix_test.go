//go:build !windows

package osproc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestExecutableOwnerIdentity(t *testing.T) {
	dir := t.TempDir()
	script, plain := filepath.Join(dir, "run.sh"), filepath.Join(dir, "data")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !Executable(script) || Executable(plain) || Executable(filepath.Join(dir, "nope")) {
		t.Error("Executable does not follow the mode bits")
	}
	fi, err := os.Stat(plain)
	if err != nil {
		t.Fatal(err)
	}
	if uid, ok := Owner(fi); !ok || uid != strconv.Itoa(os.Getuid()) {
		t.Errorf("owner %q %v", uid, ok)
	}
	link := filepath.Join(dir, "link")
	if err := os.Link(plain, link); err != nil {
		t.Fatal(err)
	}
	fl, _ := os.Stat(link)
	fs, _ := os.Stat(script)
	d1, i1, ok1 := Identity(fi)
	d2, i2, ok2 := Identity(fl)
	_, i3, _ := Identity(fs)
	if !ok1 || !ok2 || d1 != d2 || i1 != i2 || i1 == i3 {
		t.Error("Identity does not tell files apart")
	}
}

// TestGroupKillsChildren: cancelling a grouped command kills what its
// shell started too, so Wait returns at once.
func TestGroupKillsChildren(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "sleep 30 & sleep 30; wait")
	Group(cmd, true)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the group outlived its cancellation: %v", d)
	}
}
