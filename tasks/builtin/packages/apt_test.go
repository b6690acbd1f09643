package packages

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// TestAptArgs checks what apt refuses before reaching the host.
func TestAptArgs(t *testing.T) {
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	for _, c := range []struct {
		args tasks.Args
		msg  string
		err  bool
	}{
		{tasks.Args{"name": "a", "deb": "/x.deb"}, "parameters are mutually exclusive: deb|package|upgrade", true},
		{tasks.Args{"name": "a", "state": "build-dep"}, "state=build-dep is not supported by tender's apt", true},
		{tasks.Args{"deb": "/x.deb", "state": "absent"}, "deb only supports state=present", false},
		{tasks.Args{"name": "a=1=2"}, "invalid package spec: a=1=2", false},
		{tasks.Args{"name": "a", "state": "gone"}, "value of state must be one of: absent, build-dep, fixed, latest, present, got: gone", true},
	} {
		res, err := aptModule{}.Run(context.Background(), env, c.args)
		got := res.Msg
		if err != nil {
			got = err.Error()
		}
		if got != c.msg || (err != nil) != c.err || (err == nil && !res.Failed) {
			t.Errorf("%v: err=%v res=%+v, want %q", c.args, err, res, c.msg)
		}
	}
	if cc.Runs != 0 {
		t.Errorf("%d round trips for bad arguments", cc.Runs)
	}
}

// TestAptResult checks the results built from the script's verdicts, as
// Ansible's apt shapes them.
func TestAptResult(t *testing.T) {
	install := aptJob{state: "present"}
	out := "Reading package lists...\nReading state information...\nThe following NEW packages will be installed:\n  a\n0 upgraded, 1 newly installed, 0 to remove and 0 not upgraded.\nSetting up a (1) ...\n"
	res := install.result(shared.Verdict{"verdict": "ran", "rc": "0", "outlen": strconv.Itoa(len(out)), "cache_updated": "", "cache_update_time": "7"}, out+"warn\n")
	if !res.Changed || res.Data["stdout"] != out || res.Data["stderr"] != "warn\n" || res.Data["cache_update_time"] != int64(7) ||
		res.Data["cache_updated"] != false || !reflect.DeepEqual(res.Data["diff"], map[string]any{}) {
		t.Errorf("install: %+v", res)
	}
	install.diff = true
	res = install.result(shared.Verdict{"verdict": "ran", "rc": "0", "outlen": strconv.Itoa(len(out))}, out)
	want := "The following NEW packages will be installed:\n  a\n0 upgraded, 1 newly installed, 0 to remove and 0 not upgraded."
	if d := res.Data["diff"].(map[string]any); d["prepared"] != want || res.Diff != want {
		t.Errorf("diff: %q", d["prepared"])
	}
	res = install.result(shared.Verdict{"verdict": "ran", "rc": "100", "outlen": "0", "cmd": "/usr/bin/apt-get -y install 'a=1'"}, "E: broken\n")
	if !res.Failed || res.Msg != "'/usr/bin/apt-get -y install 'a=1'' failed: E: broken\n" || res.Data["rc"] != 100 {
		t.Errorf("failure: %+v", res)
	}
	remove := aptJob{state: "absent"}
	res = remove.result(shared.Verdict{"verdict": "noop", "cache_update_time": "7"}, "")
	if res.Changed || len(res.Data) != 0 {
		t.Errorf("absent noop has keys: %v", res.Data)
	}
	res = remove.result(shared.Verdict{"verdict": "ran", "rc": "1", "outlen": "0", "what": " 'a'"}, "E: x")
	if res.Msg != "'apt-get remove 'a'' failed: E: x" {
		t.Errorf("remove failure: %q", res.Msg)
	}
	res = install.result(shared.Verdict{"verdict": "cacheonly", "cache_updated": "1", "cache_update_time": "9"}, "")
	if !res.Changed || res.Data["cache_updated"] != true {
		t.Errorf("cache only: %+v", res)
	}
}

func TestAptDiffWithoutMarkers(t *testing.T) {
	if got := aptDiff("one\ntwo\n")["prepared"]; got != "one\ntwo" {
		t.Errorf("got %q", got)
	}
	if !strings.Contains(aptScript, "apt-mark manual") {
		t.Error("installed packages must be marked manual as Ansible does")
	}
}
