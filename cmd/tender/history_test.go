package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tender play and tender run record their runs; tender history lists
// them, shows one and compares two; --no-history leaves a run out,
// --history-keep drops the oldest, and -e values are not recorded.
func TestHistoryCommands(t *testing.T) {
	historyCommands(t, filepath.Join(t.TempDir(), "ledger.db"))
}

// TestHistoryCommandsPostgres: the same, the history in PostgreSQL.
func TestHistoryCommandsPostgres(t *testing.T) {
	historyCommands(t, postgresURL(t))
}

// historyCommands records runs in the ledger state names (empty) and
// reads them back.
func historyCommands(t *testing.T, state string) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hosts", "a ansible_connection=local\nb ansible_connection=local\n")
	write("site.yml", `- hosts: all
  gather_facts: false
  tasks:
    - command: "true"
    - fail: msg="b is broken password=hunter2"
      when: inventory_hostname == broken
`)
	inv, site := filepath.Join(dir, "hosts"), filepath.Join(dir, "site.yml")
	play := func(args ...string) int {
		code, _, errOut := runCLI(t, append([]string{"play", "-i", inv, "--state", state, site}, args...)...)
		if strings.Contains(errOut, "not recorded") {
			t.Fatalf("history: %s", errOut)
		}
		return code
	}
	if play("-e", "broken=nobody") != 0 || play("-e", "broken=b") != 2 || play("--no-history", "-e", "broken=a") != 2 {
		t.Fatal("the runs' exit codes")
	}
	if code, _, _ := runCLI(t, "run", "-i", inv, "--state", state, "a", "-m", "ping"); code != 0 {
		t.Fatal("tender run")
	}
	code, out, errOut := runCLI(t, "history", "--state", state)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[1], "3 ") || !strings.Contains(lines[1], " run ") ||
		!strings.Contains(lines[2], " play ") || !strings.Contains(lines[2], "failed") || !strings.Contains(lines[2], "2, 2 changed, 1 failed") ||
		!strings.Contains(lines[3], " ok ") || !strings.HasSuffix(lines[3], site) {
		t.Fatalf("history: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "history", "show", "2", "--state", state)
	if code != 0 || !strings.Contains(out, "\ntender play -i "+inv+" --state "+state+" "+site+" -e ********\n") || strings.Contains(out, "broken=b") || !strings.Contains(out, "failed: b: b is broken password=********") ||
		!strings.Contains(out, "  TASK [command]\n    changed: ") || strings.Count(out, "    changed: ") != 2 || !strings.Contains(out, "  TASK [fail]\n") {
		t.Fatalf("show: %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "history", "diff", "1", "2", "--state", state)
	if code != 0 || strings.TrimSpace(out) != "all | fail | b: skipping -> failed" {
		t.Fatalf("diff: %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "history", "--json", "--state", state)
	var runs []struct{ ID int64 }
	if err := json.Unmarshal([]byte(out), &runs); code != 0 || err != nil || len(runs) != 3 {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if code, _, errOut := runCLI(t, "history", "show", "9", "--state", state); code != 1 || !strings.Contains(errOut, "run 9 is not in the history") {
		t.Fatalf("unknown run: %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "history", "show", "x", "--state", state); code != 5 || !strings.Contains(errOut, "want a run number") {
		t.Fatalf("bad run: %d %s", code, errOut)
	}
	play("--history-keep", "2", "-e", "broken=nobody")
	_, out, _ = runCLI(t, "history", "--state", state)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[1], "4 ") || !strings.HasPrefix(lines[2], "3 ") {
		t.Fatalf("after --history-keep 2:\n%s", out)
	}
}
