package services

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// systemctlCall is one recorded run of the real systemctl.
type systemctlCall struct {
	Args   []string `json:"args"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
	RC     int      `json:"rc"`
}

// replaySystemctl stands in for systemctl: call N must have exactly the
// arguments of recorded call N ($FAKE_STATE/N.args, one per line) and is
// answered with that call's stdout, stderr and exit code. A call out of
// the record or with other arguments is written to $FAKE_STATE/log and
// answered with exit code 101.
const replaySystemctl = `
n=$(($(cat "$FAKE_STATE/next" 2>/dev/null || echo 0) + 1))
echo "$n" >"$FAKE_STATE/next"
if [ ! -e "$FAKE_STATE/$n.args" ]; then
	printf 'call %s (%s) was not recorded\n' "$n" "$*" >>"$FAKE_STATE/log"; exit 101
fi
printf '%s\n' "$@" >"$FAKE_STATE/$n.got"
if ! cmp -s "$FAKE_STATE/$n.got" "$FAKE_STATE/$n.args"; then
	printf 'call %s was (%s), recorded (%s)\n' "$n" "$*" "$(tr '\n' ' ' <"$FAKE_STATE/$n.args")" >>"$FAKE_STATE/log"; exit 101
fi
cat "$FAKE_STATE/$n.out"
cat "$FAKE_STATE/$n.err" >&2
exit "$(cat "$FAKE_STATE/$n.rc")"
`

// loadCalls makes state hold exactly calls for the replayer.
func loadCalls(t *testing.T, state string, calls []systemctlCall) {
	t.Helper()
	old, _ := filepath.Glob(filepath.Join(state, "*"))
	for _, p := range old {
		os.Remove(p)
	}
	for i, c := range calls {
		base := filepath.Join(state, strconv.Itoa(i+1))
		args := ""
		for _, a := range c.Args {
			args += a + "\n"
		}
		for ext, body := range map[string]string{"args": args, "out": c.Stdout, "err": c.Stderr, "rc": strconv.Itoa(c.RC)} {
			if err := os.WriteFile(base+"."+ext, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// changingVerbs are the systemctl verbs that change a host.
var changingVerbs = map[string]bool{"start": true, "stop": true, "restart": true, "reload": true, "enable": true,
	"disable": true, "mask": true, "unmask": true, "daemon-reload": true, "daemon-reexec": true}

// systemdCompared are the keys of a systemd or service result compared
// with Ansible's; of status, the unit's states (the rest of systemctl
// show's output is times, PIDs and IDs of the recording host).
var (
	systemdCompared = []string{"changed", "failed", "msg", "name", "state", "enabled", "warnings"}
	statusCompared  = []string{"Id", "LoadState", "ActiveState", "SubState", "UnitFileState", "LoadError", "Names"}
)

// TestSystemdTranscript runs testdata/systemctl/tasks.yml with the
// systemd and service modules against the real systemctl's answers,
// recorded on a systemd host (testdata/systemctl/gen.py): every task must
// make exactly the recorded calls, in order, and no changing call in check
// mode; each result must be what ansible-core returned for the same task on
// another such host (testdata/systemctl/ansible.json).
func TestSystemdTranscript(t *testing.T) {
	var rec struct {
		Systemctl string                     `json:"systemctl"`
		Tasks     map[string][]systemctlCall `json:"tasks"`
	}
	var want map[string]map[string]any
	for p, v := range map[string]any{"transcript.json": &rec, "ansible.json": &want} {
		b, err := os.ReadFile("../testdata/systemctl/" + p)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	bin, state := modtest.FakeTools(t, map[string]string{"systemctl": replaySystemctl})
	vars := map[string]any{"ansible_service_mgr": "systemd"}
	env, _ := modtest.TestEnv(t, t.TempDir(), vars)
	env.Conn = modtest.FakeBinConn{Conn: env.Conn, Dir: bin}
	scope := expr.NewVars(vars)
	list := modtest.LoadTaskList(t, "../testdata/systemctl/tasks.yml")
	for _, task := range list {
		calls, ok := rec.Tasks[task.Name]
		if !ok {
			t.Errorf("%s: not recorded; run testdata/systemctl/gen.py", task.Name)
			continue
		}
		loadCalls(t, state, calls)
		got := modtest.RunRecorded(t, env, scope, task)
		if log := modtest.FakeLog(t, state); log != "" {
			t.Errorf("%s: calls outside the record:\n%s", task.Name, log)
		}
		next, _ := os.ReadFile(filepath.Join(state, "next"))
		if n, _ := strconv.Atoi(strings.TrimSpace(string(next))); n != len(calls) {
			t.Errorf("%s: %d systemctl calls, %d recorded", task.Name, n, len(calls))
		}
		for _, c := range calls {
			if task.Check && len(c.Args) > 0 && changingVerbs[firstVerb(c.Args)] {
				t.Errorf("%s: check mode ran systemctl %v", task.Name, c.Args)
			}
		}
		if g, w := systemdSubset(got), systemdSubset(want[task.Name]); !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n%s", task.Name, modtest.DescribeDiff(g, w))
		}
	}
	if len(list) != len(rec.Tasks) {
		t.Errorf("%d tasks, %d recorded: run testdata/systemctl/gen.py", len(list), len(rec.Tasks))
	}
	t.Logf("%d tasks replayed against %s", len(list), rec.Systemctl)
}

// firstVerb is systemctl's verb: its first argument that is no option.
func firstVerb(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// systemdSubset is the part of a registered result that
// TestSystemdTranscript compares.
func systemdSubset(m map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range systemdCompared {
		if v, ok := m[k]; ok {
			out[k] = fmt.Sprint(v)
		}
	}
	if st, ok := m["status"].(map[string]any); ok {
		for _, k := range statusCompared {
			if v, ok := st[k]; ok {
				out["status."+k] = v
			}
		}
	}
	return out
}
