package modtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
)

// FakeBinConn runs every script with dir first on PATH, so that tests can
// stand in for tools a host has and this machine must not run for real
// (systemctl, dnf, rpm, pip).
type FakeBinConn struct {
	transport.Conn
	Dir string
}

// Run implements transport.Conn for FakeBinConn.
func (c FakeBinConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	cmd.Script = "PATH=" + transport.Quote(c.Dir) + ":$PATH; export PATH\n" + cmd.Script
	return c.Conn.Run(ctx, cmd)
}

// FakeTools writes executable sh scripts named by tools' keys into a new
// directory, with $FAKE_STATE set to a second new directory they may keep
// state in; it returns both.
func FakeTools(t *testing.T, tools map[string]string) (bin, state string) {
	t.Helper()
	bin, state = t.TempDir(), t.TempDir()
	for name, body := range tools {
		text := "#!/bin/sh\nFAKE_STATE=" + transport.Quote(state) + "\n" + strings.TrimSpace(body) + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin, state
}

// FakeLog returns the commands a fake tool logged to $FAKE_STATE/log.
func FakeLog(t *testing.T, state string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(state, "log"))
	return string(b)
}
