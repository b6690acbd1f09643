package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/agents/store/storetest"
)

// testPG is the test binary's PostgreSQL server, started by the first
// test that needs it and stopped by TestMain.
var testPG struct {
	once sync.Once
	pg   *storetest.Postgres
	err  error
}

// postgresURL returns the URL of a new database on the test server, or
// skips t (fails it under TENDER_REQUIRE_POSTGRES) when there is none.
func postgresURL(t *testing.T) string {
	t.Helper()
	testPG.once.Do(func() { testPG.pg, testPG.err = storetest.StartPostgres() })
	storetest.Skip(t, testPG.err)
	return testPG.pg.NewDatabase(t)
}

func stopPostgres() {
	if testPG.pg != nil {
		testPG.pg.Stop()
	}
}

// TestAgentCommandsPostgres: --state postgres://… keeps the ledger in
// PostgreSQL, for every agent command.
func TestAgentCommandsPostgres(t *testing.T) {
	url := postgresURL(t)
	bundle, inv, _, root := agentBundle(t)
	agentCommands(t, bundle, inv, url, root)
}

// TestAgentLedgerURLPasswordHidden: a ledger URL's password appears in no
// error tender prints.
func TestAgentLedgerURLPasswordHidden(t *testing.T) {
	bundle, inv, _, _ := agentBundle(t)
	state := "postgres://op:hunter2@127.0.0.1:1/ledger?connect_timeout=5"
	for _, args := range [][]string{
		{"agent", "history", "--state", state},
		{"agent", "forget", "--state", state, "a"},
		{"agent", "deploy", "-i", inv, "--bundle", bundle, "--state", state},
	} {
		code, out, errOut := runCLI(t, args...)
		if code == 0 || !strings.Contains(errOut, "ledger postgres://op:xxxxx@127.0.0.1:1/ledger") {
			t.Errorf("%s: exit %d, stderr %s", args[1], code, errOut)
		}
		if strings.Contains(out+errOut, "hunter2") {
			t.Errorf("%s shows the password:\n%s%s", args[1], out, errOut)
		}
	}
}
