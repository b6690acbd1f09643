package services

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// fakeRCService stands in for OpenRC's rc-service, answering as OpenRC
// 0.45 does: a service's state is the file $FAKE_STATE/svc.NAME (started,
// stopped or crashed; stopped when missing); status prints "started" on
// stdout (exit 0), "stopped" (exit 3) or "crashed" on stderr (exit 32);
// start of a started or crashed service does nothing, as OpenRC's does
// until zap marks it stopped. Every call is logged.
const fakeRCService = `
echo "rc-service $*" >>"$FAKE_STATE/log"
f="$FAKE_STATE/svc.$1"
st=stopped; [ -f "$f" ] && st=$(cat "$f")
case $2 in
status)
	case $st in
	started) echo ' * status: started' ;;
	crashed) echo ' * status: crashed' >&2; exit 32 ;;
	*) echo ' * status: stopped'; exit 3 ;;
	esac ;;
start)
	case $st in
	stopped) echo started >"$f" ;;
	*) echo " * WARNING: $1 has already been started" >&2 ;;
	esac ;;
stop|zap) echo stopped >"$f" ;;
restart) echo started >"$f" ;;
reload) [ "$st" = started ] || { echo " * ERROR: $1 has not yet been started" >&2; exit 1; } ;;
*) exit 1 ;;
esac
`

// fakeRCUpdate stands in for rc-update: $FAKE_STATE/runlevels holds
// "NAME LEVEL" lines; show prints them as rc-update show does.
const fakeRCUpdate = `
echo "rc-update $*" >>"$FAKE_STATE/log"
f="$FAKE_STATE/runlevels"
touch "$f"
case $1 in
show)
	for s in $(cut -d' ' -f1 "$f" | sort -u); do
		printf ' %20s | %s\n' "$s" "$(awk -v s="$s" '$1 == s { printf "%s ", $2 }' "$f")"
	done ;;
add) grep -qx "$2 $3" "$f" || echo "$2 $3" >>"$f" ;;
delete) grep -vx "$2 $3" "$f" >"$f.new"; mv "$f.new" "$f" ;;
esac
`

// openrcEnv is a task environment whose facts say OpenRC, with the fake
// rc-service and rc-update first on PATH.
func openrcEnv(t *testing.T) (*tasks.Env, string) {
	t.Helper()
	bin, state := modtest.FakeTools(t, map[string]string{"rc-service": fakeRCService, "rc-update": fakeRCUpdate})
	env, _ := modtest.TestEnv(t, t.TempDir(), map[string]any{"ansible_service_mgr": "openrc"})
	env.Conn = modtest.FakeBinConn{Conn: env.Conn, Dir: bin}
	return env, state
}

func setFake(t *testing.T, state, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(state, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestServiceOpenRCStates(t *testing.T) {
	env, state := openrcEnv(t)
	res := modtest.RunMod(t, env, "service", tasks.Args{"name": "tickd", "state": "started"})
	if res.Failed || !res.Changed || res.Data["state"] != "started" {
		t.Fatalf("start a stopped service: %+v", res)
	}
	if got := modtest.ReadFile(t, filepath.Join(state, "svc.tickd")); got != "started\n" {
		t.Errorf("after start: %q", got)
	}
	res = modtest.RunMod(t, env, "service", tasks.Args{"name": "tickd", "state": "started"})
	if res.Failed || res.Changed {
		t.Errorf("start a started service: %+v", res)
	}
	res = modtest.RunMod(t, env, "service", tasks.Args{"name": "tickd", "state": "stopped"})
	if res.Failed || !res.Changed || res.Data["state"] != "stopped" || modtest.ReadFile(t, filepath.Join(state, "svc.tickd")) != "stopped\n" {
		t.Errorf("stop: %+v", res)
	}
	res = modtest.RunMod(t, env, "service", tasks.Args{"name": "tickd", "state": "reloaded"})
	if res.Failed || !res.Changed || modtest.ReadFile(t, filepath.Join(state, "svc.tickd")) != "started\n" {
		t.Errorf("reload of a stopped service starts it: %+v", res)
	}
	log := modtest.FakeLog(t, state)
	for _, want := range []string{"rc-service tickd start\n", "rc-service tickd stop\n"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "zap") {
		t.Errorf("zap without a crash:\n%s", log)
	}
}

// A crashed service (its daemon died) is zapped before it is started, as
// Ansible's service does; OpenRC would not start it otherwise.
func TestServiceOpenRCCrashed(t *testing.T) {
	env, state := openrcEnv(t)
	setFake(t, state, "svc.crashd", "crashed\n")
	res := modtest.RunMod(t, env, "service", tasks.Args{"name": "crashd", "state": "started"})
	if res.Failed || !res.Changed {
		t.Fatalf("start a crashed service: %+v", res)
	}
	if got := modtest.ReadFile(t, filepath.Join(state, "svc.crashd")); got != "started\n" {
		t.Errorf("after start: %q\n%s", got, modtest.FakeLog(t, state))
	}
	if log := modtest.FakeLog(t, state); !strings.Contains(log, "rc-service crashd zap\nrc-service crashd start\n") {
		t.Errorf("want zap then start:\n%s", log)
	}
	// Check mode changes nothing, not even the zap.
	setFake(t, state, "svc.crashd", "crashed\n")
	os.Remove(filepath.Join(state, "log"))
	env.Check = true
	res = modtest.RunMod(t, env, "service", tasks.Args{"name": "crashd", "state": "started"})
	if res.Failed || !res.Changed || strings.Contains(modtest.FakeLog(t, state), "zap") {
		t.Errorf("check mode: %+v\n%s", res, modtest.FakeLog(t, state))
	}
}

// In check mode Ansible's service stops after the enabled test only when
// that would change something; otherwise it goes on to the state.
func TestServiceOpenRCCheckMode(t *testing.T) {
	env, state := openrcEnv(t)
	setFake(t, state, "runlevels", "tickd default\n")
	env.Check = true
	res := modtest.RunMod(t, env, "service", tasks.Args{"name": "tickd", "state": "started", "enabled": true})
	if res.Failed || !res.Changed || res.Msg != "service state changed" {
		t.Errorf("enabled already, stopped: %+v", res)
	}
	res = modtest.RunMod(t, env, "service", tasks.Args{"name": "tickd", "state": "started", "enabled": true, "runlevel": "boot"})
	if res.Failed || !res.Changed || res.Msg != "" {
		t.Errorf("not in the boot runlevel: %+v", res)
	}
	setFake(t, state, "svc.tickd", "started\n")
	res = modtest.RunMod(t, env, "service", tasks.Args{"name": "tickd", "state": "started", "enabled": true})
	if res.Failed || res.Changed {
		t.Errorf("enabled and started: %+v", res)
	}
	log := modtest.FakeLog(t, state)
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if !strings.HasSuffix(l, " status") && l != "rc-update show" {
			t.Errorf("check mode ran %q", l)
		}
	}
	if modtest.ReadFile(t, filepath.Join(state, "runlevels")) != "tickd default\n" {
		t.Errorf("check mode changed the runlevels")
	}
}

// enabled adds to and deletes from the runlevel asked (default by
// default), and is unchanged when the service is already as asked.
func TestServiceOpenRCEnabled(t *testing.T) {
	env, state := openrcEnv(t)
	setFake(t, state, "runlevels", "oldd default\n")
	for _, c := range []struct {
		args    tasks.Args
		changed bool
		want    string
	}{
		{tasks.Args{"name": "tickd", "enabled": true}, true, "oldd default\ntickd default\n"},
		{tasks.Args{"name": "tickd", "enabled": true}, false, "oldd default\ntickd default\n"},
		{tasks.Args{"name": "tickd", "enabled": true, "runlevel": "boot"}, true, "oldd default\ntickd default\ntickd boot\n"},
		{tasks.Args{"name": "oldd", "enabled": false, "runlevel": "boot"}, false, "oldd default\ntickd default\ntickd boot\n"},
		{tasks.Args{"name": "nosuch", "enabled": false}, false, "oldd default\ntickd default\ntickd boot\n"},
		{tasks.Args{"name": "oldd", "enabled": false}, true, "tickd default\ntickd boot\n"},
	} {
		res := modtest.RunMod(t, env, "service", c.args)
		if res.Failed || res.Changed != c.changed || res.Data["enabled"] != c.args["enabled"] {
			t.Errorf("%v: %+v", c.args, res)
		}
		if got := modtest.ReadFile(t, filepath.Join(state, "runlevels")); got != c.want {
			t.Errorf("%v: runlevels %q, want %q", c.args, got, c.want)
		}
	}
}
