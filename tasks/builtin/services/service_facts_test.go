package services

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// serviceFactsEnv returns an Env on this machine whose scripts find the
// fake tools first, and a file naming PID 1 as comm.
func serviceFactsEnv(t *testing.T, tools map[string]string, comm string) (*tasks.Env, serviceFactsModule, string) {
	t.Helper()
	bin, state := modtest.FakeTools(t, tools)
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	cc.Conn = modtest.FakeBinConn{Conn: cc.Conn, Dir: bin}
	f := filepath.Join(state, "comm")
	if err := os.WriteFile(f, []byte(comm+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return env, serviceFactsModule{comm: f, optDirs: bin}, state
}

// TestServiceFactsReplay gives service_facts, through fake service,
// systemctl, rc-status and rc-update, exactly what those tools printed on
// the fleet's SysV, systemd and OpenRC hosts (the raw_* tasks of
// testdata/service_facts/tasks.yml, recorded by gen.sh right after
// ansible-core's service_facts ran there), and checks it returns the
// services ansible-core returned: the parsing of each collector, against
// real output, without Docker.
func TestServiceFactsReplay(t *testing.T) {
	for kind, comm := range map[string]string{"sys": "sshd", "systemd": "systemd", "openrc": "openrc-init"} {
		t.Run(kind, func(t *testing.T) {
			var rec map[string]map[string]any
			b, err := os.ReadFile("../testdata/service_facts/ansible_" + kind + ".json")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			out := func(task string) string {
				s, _ := rec[task]["stdout"].(string)
				if s != "" {
					s += "\n"
				}
				return s
			}
			sysv := out("raw_sysv")
			rc := "0"
			if i := strings.LastIndex(sysv, "rc="); i >= 0 {
				sysv, rc = sysv[:i], strings.TrimSpace(sysv[i+3:])
			}
			tools := map[string]string{
				"service": `[ "$1" = --status-all ] || exit 1; cat "$FAKE_STATE/sysv"; cat "$FAKE_STATE/sysv_err" >&2; exit ` + rc,
				"systemctl": `case $1 in
list-units) cat "$FAKE_STATE/units" ;;
list-unit-files) cat "$FAKE_STATE/files" ;;
show) awk -F '\t' -v u="$2" '$1 == u { print $3; exit $2 }' "$FAKE_STATE/show" ;;
*) exit 1 ;;
esac`,
			}
			if kind == "openrc" {
				tools["rc-status"] = `cat "$FAKE_STATE/rcstatus"`
				tools["rc-update"] = `cat "$FAKE_STATE/rcupdate"`
			}
			env, m, state := serviceFactsEnv(t, tools, comm)
			errOut, _ := rec["raw_sysv"]["stderr"].(string)
			if errOut != "" {
				errOut += "\n"
			}
			for name, text := range map[string]string{"sysv": sysv, "sysv_err": errOut, "units": out("raw_units"),
				"files": out("raw_unit_files"), "show": out("raw_show"), "rcstatus": out("raw_rc_status"), "rcupdate": out("raw_rc_update")} {
				if err := os.WriteFile(filepath.Join(state, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := m.Run(context.Background(), env, tasks.Args{})
			if err != nil {
				t.Fatal(err)
			}
			got, want := modtest.Normalize(modtest.Registered(res), "", ""), modtest.Normalize(rec["facts"], "", "")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("service_facts on the %s host's output:\n%s", kind, modtest.DescribeDiff(got, want))
			}
			if n := len(want["ansible_facts"].(map[string]any)["services"].(map[string]any)); n < 5 {
				t.Errorf("the recording holds %d services only", n)
			}
		})
	}
}

// TestServiceFactsCollectors checks the collectors the fleet has no host
// for, with fake tools: RedHat's chkconfig (each service's state by
// "service NAME status"), upstart's initctl, the warnings when a tool
// fails, and the skip when no service is found.
func TestServiceFactsCollectors(t *testing.T) {
	ctx := context.Background()
	t.Run("chkconfig", func(t *testing.T) {
		env, m, _ := serviceFactsEnv(t, map[string]string{
			"chkconfig": `printf '%s\n' 'crond          	0:off	1:off	2:on	3:on	4:on	5:on	6:off' \
'net consoled   	0:off	1:off	2:off	3:off	4:off	5:off	6:off' 'xinetd based services:' '	rsync: off'`,
			"service": `case $1 in crond) exit 0 ;; "net consoled") echo "must be root" >&2; exit 4 ;; *) exit 3 ;; esac`,
		}, "init")
		res, err := m.Run(ctx, env, tasks.Args{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{
			"crond":        map[string]any{"name": "crond", "state": "running", "status": "enabled", "source": "sysv"},
			"net consoled": map[string]any{"name": "net consoled", "state": 4, "status": "disabled", "source": "sysv"},
		}
		if got := res.Data["ansible_facts"].(map[string]any)["services"]; !reflect.DeepEqual(got, want) {
			t.Errorf("services = %v, want %v", got, want)
		}
		if w := []string{`Insufficient permissions to query sysV service "net consoled" and their states`}; !reflect.DeepEqual(res.Warnings, w) {
			t.Errorf("warnings = %q, want %q", res.Warnings, w)
		}
	})
	t.Run("upstart", func(t *testing.T) {
		env, m, _ := serviceFactsEnv(t, map[string]string{
			"initctl": `printf 'tty1 start/running, process 42\r\nrc stop/waiting\n'`,
			"service": `echo "service: broken" >&2; exit 2`,
		}, "init")
		res, err := m.Run(ctx, env, tasks.Args{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{
			"tty1": map[string]any{"name": "tty1", "state": "running", "goal": "start", "source": "upstart"},
			"rc":   map[string]any{"name": "rc", "state": "waiting", "goal": "stop", "source": "upstart"},
		}
		if got := res.Data["ansible_facts"].(map[string]any)["services"]; !reflect.DeepEqual(got, want) {
			t.Errorf("services = %v, want %v", got, want)
		}
		if w := []string{"Unable to query 'service' tool (2): service: broken\n"}; !reflect.DeepEqual(res.Warnings, w) {
			t.Errorf("warnings = %q, want %q", res.Warnings, w)
		}
	})
	t.Run("systemd failing", func(t *testing.T) {
		env, m, _ := serviceFactsEnv(t, map[string]string{
			"service":   `exit 0`,
			"systemctl": `echo "Failed to connect to bus" >&2; exit 1`,
		}, "systemd")
		res, err := m.Run(ctx, env, tasks.Args{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Skipped || res.Msg != "Failed to find any services. This can be due to privileges or some other configuration issue." {
			t.Errorf("nothing found: %+v", res)
		}
		w := []string{"Could not list units from systemd: Failed to connect to bus\n",
			"Could not get unit files data from systemd: Failed to connect to bus\n"}
		if !reflect.DeepEqual(res.Warnings, w) {
			t.Errorf("warnings = %q, want %q", res.Warnings, w)
		}
	})
	if _, err := (serviceFactsModule{}).Run(ctx, nil, tasks.Args{"name": "x"}); err == nil ||
		!strings.HasPrefix(err.Error(), "Unsupported parameters for (service_facts) module: name.") {
		t.Errorf("an argument: %v", err)
	}
}

// TestParseBlobs checks that blobs come back byte for byte, whatever
// they hold, with the key=value lines around them.
func TestParseBlobs(t *testing.T) {
	out := []byte("a=1\n\n--blob x 12--\nb=2\n--blob y\n\nc=3\n--blob empty 0--\n\nd=4\n")
	v, b := shared.ParseBlobs(out)
	if v["a"] != "1" || v["c"] != "3" || v["d"] != "4" || v["b"] != "" {
		t.Errorf("verdict %v", v)
	}
	if b["x"] != "b=2\n--blob y" || b["empty"] != "" || len(b) != 2 {
		t.Errorf("blobs %q", b)
	}
}
