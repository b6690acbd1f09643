package packages

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// fakeAptUpgrade is fakeApt with an apt-get that upgrades every package
// of $FAKE_STATE/upgradable (one name a line), cleans and autocleans
// $FAKE_STATE/archives, and an apt-config that puts apt's cache there.
func fakeAptUpgrade() map[string]string {
	tools := maps.Clone(fakeApt)
	tools["apt-get"] = `
echo "apt-get $*" >>"$FAKE_STATE/log"
sim=
for a; do [ "$a" = --simulate ] && sim=1; done
for a; do
	case $a in
	clean) rm -f "$FAKE_STATE"/archives/*.deb; exit 0 ;;
	update) echo 200 >"$FAKE_STATE/stamp"; exit 0 ;;
	autoclean)
		for f in "$FAKE_STATE"/archives/old-*.deb; do [ -f "$f" ] && echo "Del ${f##*/} [1 kB]" && [ -z "$sim" ] && rm -f "$f"; done
		exit 0 ;;
	upgrade|dist-upgrade)
		echo "Reading package lists..."; echo "Reading state information..."
		n=$(grep -c . "$FAKE_STATE/upgradable" 2>/dev/null || echo 0)
		[ "$n" -gt 0 ] && echo "The following packages will be upgraded:" && sed 's/^/  /' "$FAKE_STATE/upgradable"
		echo "$n upgraded, 0 newly installed, 0 to remove and 0 not upgraded."
		[ -f "$FAKE_STATE/broken" ] && { echo "E: broken" >&2; exit 100; }
		[ -n "$sim" ] || rm -f "$FAKE_STATE/upgradable"
		exit 0 ;;
	esac
done
exit 1`
	return tools
}

func fakeAptUpgradeEnv(t *testing.T) (*tasks.Env, string) {
	t.Helper()
	bin, state := modtest.FakeTools(t, fakeAptUpgrade())
	os.MkdirAll(filepath.Join(state, "archives", "partial"), 0o755)
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	env.Conn = modtest.FakeBinConn{Conn: cc, Dir: bin}
	return env, state
}

// TestAptUpgrade: upgrade's modes run apt-get as Ansible's apt does
// without aptitude, with apt's options; the upgrade is changed only when
// apt-get upgraded something, so that a second run is unchanged; check
// mode simulates; name=* with state=latest is upgrade=yes.
func TestAptUpgrade(t *testing.T) {
	env, state := fakeAptUpgradeEnv(t)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(state, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const opts = "-y -o DPkg::Lock::Timeout=60 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold"
	for _, c := range []struct {
		name    string
		args    tasks.Args
		check   bool
		changed bool
		call    string
	}{
		{"check", tasks.Args{"upgrade": "dist"}, true, true, "apt-get " + opts + " --simulate dist-upgrade"},
		{"dist", tasks.Args{"upgrade": "dist", "autoremove": true, "default_release": "stable"}, false, true,
			"apt-get " + opts + " dist-upgrade --auto-remove -t stable"},
		{"dist again", tasks.Args{"upgrade": "dist"}, false, false, "apt-get " + opts + " dist-upgrade"},
		{"full", tasks.Args{"upgrade": "full", "force": true, "allow_downgrade": true}, false, false,
			"apt-get " + opts + " --force-yes --allow-downgrades dist-upgrade"},
		{"yes", tasks.Args{"upgrade": "yes", "fail_on_autoremove": true}, false, true,
			"apt-get " + opts + " --no-remove upgrade --with-new-pkgs"},
		{"safe", tasks.Args{"upgrade": "safe", "allow_unauthenticated": true}, false, false,
			"apt-get " + opts + " --allow-unauthenticated upgrade --with-new-pkgs"},
		{"star latest", tasks.Args{"name": "*", "state": "latest"}, false, true, "apt-get " + opts + " upgrade --with-new-pkgs"},
	} {
		if c.changed {
			write("upgradable", "a\nb\n")
		}
		os.Remove(filepath.Join(state, "log"))
		env.Check = c.check
		res, err := aptModule{}.Run(context.Background(), env, c.args)
		if err != nil || res.Failed || res.Changed != c.changed {
			t.Errorf("%s: err=%v %+v", c.name, err, res)
			continue
		}
		if got := strings.TrimSpace(modtest.FakeLog(t, state)); got != c.call {
			t.Errorf("%s: ran\n%s\nwant\n%s", c.name, got, c.call)
		}
		if res.Data["msg"] != res.Data["stdout"] || !strings.Contains(res.Msg, "upgraded, 0 newly installed") {
			t.Errorf("%s: msg %q, stdout %q", c.name, res.Data["msg"], res.Data["stdout"])
		}
		if _, ok := res.Data["diff"]; ok != c.changed {
			t.Errorf("%s: diff %v, want it only when changed", c.name, res.Data["diff"])
		}
	}
	env.Check = false
	write("broken", "")
	res, _ := aptModule{}.Run(context.Background(), env, tasks.Args{"upgrade": "dist"})
	if !res.Failed || res.RC != 100 || !strings.HasSuffix(res.Msg, "apt-get dist-upgrade ' failed: E: broken\n") || res.Data["rc"] != 100 {
		t.Errorf("failed upgrade: %+v", res)
	}
	res, _ = aptModule{}.Run(context.Background(), env, tasks.Args{"name": []any{"*", "a"}, "state": "latest"})
	if !res.Failed || res.Msg != "unable to install additional packages when upgrading all installed packages" {
		t.Errorf("* with a package: %+v", res)
	}
	if _, err := aptArgs.Decode(tasks.Args{"upgrade": "dist", "name": "a"}); err == nil || err.Error() != "parameters are mutually exclusive: deb|package|upgrade" {
		t.Errorf("upgrade with name: %v", err)
	}
}

// TestAptClean: clean runs apt-get clean before anything else (not in
// check mode), and the task goes on as if clean were not there, as
// Ansible's: alone it is unchanged with the cache's keys, with
// update_cache it updates the cache. autoclean alone runs apt-get
// autoclean, changed when apt-get deleted an archive.
func TestAptClean(t *testing.T) {
	env, state := fakeAptUpgradeEnv(t)
	deb := filepath.Join(state, "archives", "old-a_1.0_all.deb")
	os.WriteFile(deb, nil, 0o644)
	env.Check = true
	res, err := aptModule{}.Run(context.Background(), env, tasks.Args{"clean": true})
	if err != nil || res.Changed || !modtest.Exists(deb) || modtest.FakeLog(t, state) != "" {
		t.Fatalf("check: err=%v %+v, log %q", err, res, modtest.FakeLog(t, state))
	}
	env.Check = false
	res, _ = aptModule{}.Run(context.Background(), env, tasks.Args{"clean": true})
	if res.Changed || res.Failed || modtest.Exists(deb) || strings.TrimSpace(modtest.FakeLog(t, state)) != "apt-get clean" {
		t.Fatalf("clean: %+v, log %q", res, modtest.FakeLog(t, state))
	}
	if _, ok := res.Data["cache_update_time"]; !ok || res.Data["cache_updated"] != false {
		t.Errorf("clean alone lacks the cache's keys: %v", res.Data)
	}
	os.Remove(filepath.Join(state, "log"))
	res, _ = aptModule{}.Run(context.Background(), env, tasks.Args{"clean": true, "update_cache": true})
	if !res.Changed || res.Data["cache_updated"] != true || !strings.HasPrefix(modtest.FakeLog(t, state), "apt-get clean\napt-get ") {
		t.Errorf("clean and update: %+v, log %q", res, modtest.FakeLog(t, state))
	}
	os.WriteFile(deb, nil, 0o644)
	os.Remove(filepath.Join(state, "log"))
	for i, want := range []bool{true, false} {
		res, _ = aptModule{}.Run(context.Background(), env, tasks.Args{"autoclean": true, "autoremove": true, "purge": true})
		if res.Changed != want || res.Failed {
			t.Errorf("autoclean %d: %+v", i, res)
		}
	}
	if log := modtest.FakeLog(t, state); !strings.HasPrefix(log, "apt-get -y -o DPkg::Lock::Timeout=60 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold --purge autoclean\n") {
		t.Errorf("autoclean ran %q", log)
	}
	res = aptJob{}.result(shared.Verdict{"verdict": "cleaned", "op": "autoremove"}, "Del x\n")
	if res.Changed {
		t.Error("autoremove's output without REMOVED is unchanged")
	}
}
