package builtin

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
)

// fakeSystemctl keeps each unit's active and enabled state in files; the
// unit "missing" does not exist.
const fakeSystemctl = `
echo "$*" >>"$FAKE_STATE/log"
cmd=$1; shift
[ "$1" = -- ] && shift
u=$1
case $cmd in
daemon-reload) exit 0 ;;
show)
	if [ "$u" = missing ]; then echo "LoadState=not-found"; echo "ActiveState=inactive"; exit 0; fi
	echo "Id=$u.service"; echo "LoadState=loaded"
	if [ -e "$FAKE_STATE/active.$u" ]; then echo ActiveState=active; else echo ActiveState=inactive; fi
	echo "ExecStart={ path=/usr/bin/sleep ; argv[]=/usr/bin/sleep 100"
	echo " ; status=0/0 }" ;;
is-enabled)
	[ "$u" = missing ] && { echo "Failed to get unit file state" >&2; exit 1; }
	if [ -e "$FAKE_STATE/enabled.$u" ]; then echo enabled; else echo disabled; exit 1; fi ;;
list-unit-files) [ "$u" != missing ] ;;
start|restart|reload) touch "$FAKE_STATE/active.$u" ;;
stop) rm -f "$FAKE_STATE/active.$u" ;;
enable) touch "$FAKE_STATE/enabled.$u" ;;
disable) rm -f "$FAKE_STATE/enabled.$u" ;;
*) exit 1 ;;
esac
`

// TestSystemdIdempotent drives a fake systemctl: every change is made once,
// a second run changes nothing, check mode runs no changing command, and
// service hands the task to systemd when ansible_service_mgr says so.
func TestSystemdIdempotent(t *testing.T) {
	bin, state := fakeTools(t, map[string]string{"systemctl": fakeSystemctl})
	env, _ := testEnv(t, t.TempDir(), map[string]any{"ansible_service_mgr": "systemd"})
	env.Conn = fakeBinConn{env.Conn, bin}
	steps := []struct {
		module  string
		args    tasks.Args
		check   bool
		changed bool
		state   string
	}{
		{"systemd", tasks.Args{"name": "web", "state": "started"}, true, true, "started"},
		{"systemd", tasks.Args{"name": "web", "state": "started", "enabled": true}, false, true, "started"},
		{"systemd", tasks.Args{"name": "web", "state": "started", "enabled": true}, false, false, "started"},
		{"service", tasks.Args{"name": "web", "state": "stopped"}, false, true, "stopped"},
		{"service", tasks.Args{"name": "web", "state": "stopped"}, false, false, "stopped"},
		{"systemd", tasks.Args{"name": "web", "state": "restarted", "daemon_reload": true}, false, true, "started"},
		{"systemd", tasks.Args{"name": "web", "enabled": false}, false, true, ""},
		{"systemd", tasks.Args{"name": "web", "enabled": false}, false, false, ""},
	}
	for i, s := range steps {
		env.Check = s.check
		before := fakeLog(t, state)
		res := runMod(t, env, s.module, s.args)
		if res.Failed || res.Changed != s.changed {
			t.Fatalf("step %d %v: failed=%v changed=%v (want %v) msg=%q", i, s.args, res.Failed, res.Changed, s.changed, res.Msg)
		}
		if st, _ := res.Data["state"].(string); st != s.state {
			t.Errorf("step %d: state %q, want %q", i, st, s.state)
		}
		ran := strings.TrimPrefix(fakeLog(t, state), before)
		for _, verb := range []string{"start", "stop", "restart", "enable", "disable"} {
			if s.check && strings.Contains("\n"+ran, "\n"+verb+" ") {
				t.Errorf("step %d: check mode ran systemctl %s", i, verb)
			}
		}
	}
	res := runMod(t, env, "systemd", tasks.Args{"name": "web", "state": "started"})
	st := res.Data["status"].(map[string]any)
	if st["ActiveState"] != "active" || !strings.HasPrefix(st["ExecStart"].(string), "{ path=/usr/bin/sleep") || !strings.HasSuffix(st["ExecStart"].(string), "}") {
		t.Errorf("status: %v", st)
	}
	res = runMod(t, env, "systemd", tasks.Args{"name": "missing", "state": "started"})
	if !res.Failed || res.Msg != "Could not find the requested service missing: host" {
		t.Errorf("missing unit: %+v", res)
	}
	if _, err := Registry().Lookup("systemd"); !err {
		t.Fatal("systemd not registered")
	}
	res = runMod(t, env, "systemd", tasks.Args{"name": "web*", "state": "started"})
	if !res.Failed || !strings.Contains(res.Msg, "glob patterns, found '*'") {
		t.Errorf("glob: %+v", res)
	}
}

func TestParseSystemctlShow(t *testing.T) {
	got := parseSystemctlShow("A=1\nExecStart={ x ;\n y }\nB= two \nnoequals\n")
	want := map[string]any{"A": "1", "ExecStart": "{ x ;\n y }", "B": "two"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
}
