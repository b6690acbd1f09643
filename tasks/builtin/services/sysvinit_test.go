package services

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// sysvinitFake returns an Env on this machine whose sysvinit finds the
// fake service (running the script) and update-rc.d (logging to
// $FAKE_STATE/log), and the path
// of an init script (a fake too, logging its actions and arguments)
// named by a unique name, so that no rc link of this machine names it.
func sysvinitFake(t *testing.T, initScript string) (*tasks.Env, sysvinitModule, string, string) {
	t.Helper()
	bin, state := modtest.FakeTools(t, map[string]string{
		"service":     `s=$1; shift; exec "$s" "$@"`,
		"update-rc.d": `echo "update-rc.d $*" >>"$FAKE_STATE/log"`,
	})
	script := filepath.Join(state, "tender-unit-svc")
	body := "#!/bin/sh\nFAKE_STATE=" + shared.Q(state) + "\necho \"script $*\" >>\"$FAKE_STATE/log\"\n" + initScript + "\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	cc.Conn = modtest.FakeBinConn{Conn: cc.Conn, Dir: bin}
	return env, sysvinitModule{optDirs: bin}, script, state
}

// TestSysvinitDecisions checks how sysvinit tells whether the service
// runs and what it then runs, with fake init scripts: the status
// action's words, its exit code, the hail-mary rc 0, the commands run for
// each state and for enabled (with their arguments, quoted), check mode,
// and the result Ansible's returns.
func TestSysvinitDecisions(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name, status string
		args         tasks.Args
		check        bool
		changed      bool
		log          string
		warnings     []string
	}{
		{"running by words", `echo "$(basename $0) is running"`, tasks.Args{"state": "started"}, false, false, "script status", nil},
		{"inactive beats active", `echo "service is inactive"; exit 0`, tasks.Args{"state": "started"}, false, true,
			"script status\nscript start", nil},
		{"not running, rc 0", `echo "it is not running"; exit 0`, tasks.Args{"state": "stopped"}, false, true, "script status\nscript stop", nil},
		{"not running, rc 1", `echo "it is not running"; exit 1`, tasks.Args{"state": "stopped"}, false, false, "script status", nil},
		{"rc 3 means stopped", `printf 'a\nb\nc\n'; exit 3`, tasks.Args{"state": "started", "arguments": "--x 'a b' $(touch /tmp/x)"}, false, true,
			"script status\nscript start --x a b $(touch /tmp/x)", nil},
		{"rc 0 means running", `printf 'a\nb\n'`, tasks.Args{"state": "stopped"}, false, true, "script status\nscript stop", nil},
		{"unknown", `printf 'a\nb\n'; exit 9`, tasks.Args{"state": "started"}, false, true, "script status\nscript start",
			[]string{"Unable to determine if service is up, assuming it is down"}},
		{"restart", `exit 3`, tasks.Args{"state": "restarted", "sleep": 0}, false, true,
			"script status\nscript stop\nscript start", nil},
		{"reload stopped", `exit 3`, tasks.Args{"state": "reloaded"}, false, true, "script status\nscript reload", nil},
		{"check", `exit 3`, tasks.Args{"state": "started", "enabled": true}, true, true, "script status", nil},
		{"enable", `exit 0`, tasks.Args{"enabled": true}, false, true, "script status\nupdate-rc.d S defaults", nil},
		{"enable runlevels", `exit 0`, tasks.Args{"enabled": true, "runlevels": []any{"2", "5"}}, false, true,
			"script status\nupdate-rc.d S enable 2 5", nil},
		{"disabled already", `exit 0`, tasks.Args{"enabled": false}, false, false, "script status", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, m, script, state := sysvinitFake(t, "case $1 in status) "+c.status+" ;; esac")
			args := tasks.Args{"name": script}
			for k, v := range c.args {
				args[k] = v
			}
			env.Check = c.check
			res, err := m.Run(ctx, env, args)
			if err != nil || res.Failed {
				t.Fatalf("%v %+v", err, res)
			}
			if res.Changed != c.changed || !reflect.DeepEqual(res.Warnings, c.warnings) {
				t.Errorf("changed %v warnings %q, want %v %q", res.Changed, res.Warnings, c.changed, c.warnings)
			}
			if log := strings.ReplaceAll(strings.TrimSpace(modtest.FakeLog(t, state)), script, "S"); log != c.log {
				t.Errorf("ran:\n%s\nwant:\n%s", log, c.log)
			}
			st := res.Data["status"].(map[string]any)
			key := "null"
			if s, ok := c.args["state"].(string); ok {
				key = s
			}
			if _, ok := st[key]; !ok || len(st) != 2 {
				t.Errorf("status keys %v, want enabled and %s", st, key)
			}
		})
	}
}

// TestSysvinitResults checks the results Ansible's sysvinit gives for
// a start, a failed start, a missing script, and the refusals.
func TestSysvinitResults(t *testing.T) {
	ctx := context.Background()
	env, m, script, _ := sysvinitFake(t, `case $1 in status) exit 3 ;; start) echo started; echo warn >&2 ;; stop) echo no >&2; exit 7 ;; esac`)
	res, err := m.Run(ctx, env, tasks.Args{"name": script, "state": "started"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": script, "status": map[string]any{
		"enabled": map[string]any{"changed": false, "rc": nil, "stdout": nil, "stderr": nil},
		"started": map[string]any{"changed": true, "rc": 0, "stdout": "started\n", "stderr": "warn\n"},
	}}
	if !res.Changed || !reflect.DeepEqual(res.Data, want) {
		t.Errorf("start: %+v", res)
	}
	res, err = m.Run(ctx, env, tasks.Args{"name": script, "state": "restarted"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Failed || res.Msg != "Failed to restart service: "+script || res.Data["rc"] != 7 || res.Data["stderr"] != "no\n" {
		t.Errorf("failed restart: %+v", res)
	}
	res, err = m.Run(ctx, env, tasks.Args{"name": "x; touch " + script + ".pwned", "state": "started"})
	if err != nil || res.Msg != "Could not find the requested service x; touch "+script+".pwned: " {
		t.Errorf("missing: %v %+v", err, res)
	}
	if _, err := os.Stat(script + ".pwned"); err == nil {
		t.Error("a name ran as a command")
	}
	for _, args := range []tasks.Args{
		{"name": script, "runlevels": []any{"2"}, "state": "started"},
		{"name": script, "runlevels": []any{"2;x"}, "enabled": true},
		{"name": script},
	} {
		if _, err := m.Run(ctx, env, args); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
	v := shared.Verdict{"running": "1", "worked": "1", "en_changed": "1", "en_ran": "1", "en_tool": "none", "en_rc": "0"}
	a, _ := sysvinitArgs.Decode(tasks.Args{"name": "svc", "enabled": true})
	if r := sysvinitResult(env, a, "", "", nil, v, map[string]string{}); !r.Failed ||
		r.Msg != "Cannot enable or disable svc: the host has neither update-rc.d nor chkconfig" {
		t.Errorf("no tool: %+v", r)
	}
	v["en_tool"], v["en_rc"] = "chkconfig", "1"
	if r := sysvinitResult(env, a, "", "", nil, v, map[string]string{"en_err": "error: illegal runlevel specified\n"}); !r.Failed ||
		r.Msg != "Illegal runlevel specified for enable operation on service svc" || !r.Changed {
		t.Errorf("illegal runlevel: %+v", r)
	}
}
