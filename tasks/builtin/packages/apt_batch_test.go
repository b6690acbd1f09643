package packages

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
)

// The fake apt keeps installed packages as $FAKE_STATE/inst/NAME and the
// repository's as $FAKE_STATE/avail/NAME, each file holding a version,
// and writes dpkg's status file of them ($FAKE_STATE/dpkg/status, the
// script's DPKG_ADMINDIR being $FAKE_STATE/dpkg); apt-get logs its
// arguments.
var fakeApt = map[string]string{
	"dpkg-query": `
for n; do :; done
[ -f "$FAKE_STATE/inst/$n" ] || exit 1
case $1 in -L) exit 0 ;; esac
printf 'ii |%s' "$(cat "$FAKE_STATE/inst/$n")"`,
	"apt-cache": `
for n; do :; done
case " $* " in *" policy "*) ;; *) exit 0 ;; esac
[ -f "$FAKE_STATE/avail/$n" ] || exit 0
printf '%s:\n  Installed: (none)\n  Candidate: %s\n' "$n" "$(cat "$FAKE_STATE/avail/$n")"`,
	"apt-mark": `echo "apt-mark $*" >>"$FAKE_STATE/log"`,
	// The cache's time: 100 until apt-get update makes it 200 (or, with
	// $FAKE_STATE/same-second, keeps the second and changes the
	// nanoseconds, which only %y shows).
	"stat": `s=$(cat "$FAKE_STATE/stamp" 2>/dev/null || echo 100)
ns=$(cat "$FAKE_STATE/ns" 2>/dev/null || echo 0)
case $2 in %y) echo "$s.$ns" ;; '%Y %y') echo "$s $s.$ns" ;; *) echo "$s" ;; esac`,
	"apt-get": `
echo "apt-get $*" >>"$FAKE_STATE/log"
sim= op= pkgs=
for a; do
	case $a in update) if [ -e "$FAKE_STATE/same-second" ]; then echo 1 >"$FAKE_STATE/ns"; else echo 200 >"$FAKE_STATE/stamp"; fi; exit 0 ;; --simulate) sim=1 ;; install|remove) op=$a ;; -*) ;; *) [ -n "$op" ] && pkgs="$pkgs $a" ;; esac
done
echo "Reading package lists..."; echo "Reading state information..."
echo "The following packages will be changed:"; echo " $pkgs"
echo "0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded."
[ -n "$sim" ] && exit 0
for p in $pkgs; do
	n=${p%%=*}
	if [ "$op" = install ]; then printf %s "${p#*=}" >"$FAKE_STATE/inst/$n"; else rm -f "$FAKE_STATE/inst/$n"; fi
done
` + fakeDpkgStatus,
}

// fakeDpkgStatus writes $FAKE_STATE/dpkg/status from $FAKE_STATE/inst:
// each package installed, after one not installed any more (a stanza
// dpkg keeps for a removed package's configuration).
const fakeDpkgStatus = `mkdir -p "$FAKE_STATE/dpkg"
{ printf 'Package: gone\nStatus: deinstall ok config-files\nVersion: 0.1\nDescription: removed\n Package: a\n\n'
for f in "$FAKE_STATE"/inst/*; do
	[ -f "$f" ] || continue
	printf 'Package: %s\nStatus: install ok installed\nPriority: optional\nVersion: %s\n\n' "${f##*/}" "$(cat "$f")"
done; } >"$FAKE_STATE/dpkg/status"`

// fakeAptEnv returns an Env whose host has the fake apt, with avail in
// the repository and inst installed (name: version), and its counts.
func fakeAptEnv(t *testing.T, avail, inst map[string]string) (*tasks.Env, *modtest.CountingConn, string) {
	t.Helper()
	bin, state := modtest.FakeTools(t, fakeApt)
	for dir, pkgs := range map[string]map[string]string{"avail": avail, "inst": inst} {
		os.MkdirAll(filepath.Join(state, dir), 0o755)
		for n, v := range pkgs {
			if err := os.WriteFile(filepath.Join(state, dir, n), []byte(v), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	status := exec.Command("sh", "-c", "FAKE_STATE="+transport.Quote(state)+"\n"+fakeDpkgStatus)
	if out, err := status.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	env.Conn = modtest.FakeBinConn{Conn: adminDirConn{Conn: cc, dir: filepath.Join(state, "dpkg")}, Dir: bin}
	return env, cc, state
}

// adminDirConn runs scripts with DPKG_ADMINDIR set to dir, where the fake
// apt keeps dpkg's status file.
type adminDirConn struct {
	transport.Conn
	dir string
}

func (c adminDirConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	cmd.Script = "DPKG_ADMINDIR=" + transport.Quote(c.dir) + "; export DPKG_ADMINDIR\n" + cmd.Script
	return c.Conn.Run(ctx, cmd)
}

var fakeRepo = map[string]string{"a": "1.0", "b": "2.0", "c": "3.0"}

func aptItems(extra tasks.Args, names ...string) []tasks.Args {
	var items []tasks.Args
	for _, n := range names {
		it := tasks.Args{"name": n}
		for k, v := range extra {
			it[k] = v
		}
		items = append(items, it)
	}
	return items
}

// summary is what must be the same batched or item by item: changed,
// failed, msg and the keys of the data.
func summary(res []tasks.Result) []string {
	var out []string
	for _, r := range res {
		out = append(out, fmt.Sprintf("changed=%v failed=%v msg=%q keys=%v", r.Changed, r.Failed, r.Msg, slices.Sorted(maps.Keys(r.Data))))
	}
	return out
}

// TestAptBatch: a loop's apt items are one round trip and one apt-get,
// and each item's result is the one Run gives item by item on the same
// host: changed for its own packages only, failures on their own item.
func TestAptBatch(t *testing.T) {
	for _, c := range []struct {
		name   string
		extra  tasks.Args
		names  []string
		inst   map[string]string
		trips  int // the batch's round trips
		apt    string
		failed int // the failing item, -1 for none
	}{
		{"install", nil, []string{"a", "b", "c", "a"}, map[string]string{"c": "3.0"}, 1,
			"apt-get -y -o DPkg::Lock::Timeout=60 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold install a=1.0 b=2.0 a=1.0\n", -1},
		{"remove", tasks.Args{"state": "absent"}, []string{"zz", "a", "b"}, map[string]string{"a": "1.0", "b": "2.0"}, 1,
			"apt-get -q -y -o DPkg::Lock::Timeout=60 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold remove a b\n", -1},
		{"noop", nil, []string{"a", "b"}, map[string]string{"a": "1.0", "b": "2.0"}, 1, "", -1},
		{"missing", nil, []string{"a", "nosuch", "b"}, nil, 4, "", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			env, cc, state := fakeAptEnv(t, fakeRepo, c.inst)
			got, ok, err := aptModule{}.Batch(context.Background(), env, aptItems(c.extra, c.names...))
			if err != nil || !ok {
				t.Fatalf("Batch: ok=%v err=%v", ok, err)
			}
			if cc.Runs != c.trips {
				t.Errorf("%d round trips, want %d", cc.Runs, c.trips)
			}
			if log := modtest.FakeLog(t, state); c.apt != "" && !strings.HasPrefix(log, c.apt) {
				t.Errorf("apt-get ran as\n%s\nwant\n%s", log, c.apt)
			}
			env1, _, _ := fakeAptEnv(t, fakeRepo, c.inst)
			want, err := shared.RunEach(context.Background(), env1, aptModule{}, aptItems(c.extra, c.names...))
			if err != nil {
				t.Fatal(err)
			}
			if g, w := summary(got), summary(want); !reflect.DeepEqual(g, w) {
				t.Errorf("batched\n%q\nitem by item\n%q", g, w)
			}
			for i, r := range got {
				if r.Failed != (i == c.failed) {
					t.Errorf("item %d: failed=%v %q", i, r.Failed, r.Msg)
				}
			}
		})
	}
}

// TestAptBatchCache: the cache is refreshed once for the batch; with
// cache_valid_time only the first item says so, as item by item (the
// others find it fresh); without it, or in check mode, every item would
// have refreshed it.
func TestAptBatchCache(t *testing.T) {
	if _, err := os.Stat("/var/lib/apt/lists"); err != nil {
		t.Skip("the script reads the cache's time from /var/lib/apt/lists, which this machine lacks")
	}
	for _, c := range []struct {
		valid  int
		check  bool
		second bool
	}{{1, false, false}, {1, true, true}, {0, false, true}} {
		env, _, state := fakeAptEnv(t, fakeRepo, nil)
		env.Check = c.check
		items := aptItems(tasks.Args{"update_cache": true, "cache_valid_time": c.valid}, "a", "b")
		res, ok, err := aptModule{}.Batch(context.Background(), env, items)
		if err != nil || !ok {
			t.Fatalf("ok=%v err=%v", ok, err)
		}
		first, second := res[0].Data["cache_updated"], res[1].Data["cache_updated"]
		if first != true || second != c.second || !res[0].Changed || !res[1].Changed {
			t.Errorf("%+v: cache_updated %v, %v; changed %v, %v", c, first, second, res[0].Changed, res[1].Changed)
		}
		if n := strings.Count(modtest.FakeLog(t, state), " update"); n != map[bool]int{true: 0, false: 1}[c.check] {
			t.Errorf("%+v: %d cache updates", c, n)
		}
	}
}

// TestAptMergeable: what Batch leaves to Run item by item.
func TestAptMergeable(t *testing.T) {
	for _, c := range []struct {
		items []tasks.Args
		ok    bool
	}{
		{aptItems(nil, "a", "b=1.0", "c>=2"), true},
		{aptItems(nil, "a", "a"), true},
		{aptItems(nil, "a=1", "a=2"), false},
		{aptItems(nil, "a", "lib*"), false},
		{aptItems(nil, "a", ""), false},
		{aptItems(tasks.Args{"autoremove": true}, "a", "b"), false},
		{aptItems(tasks.Args{"state": "build-dep"}, "a", "b"), false},
		{[]tasks.Args{{"name": "a"}, {"name": "b", "state": "absent"}}, false},
		{[]tasks.Args{{"name": "a"}, {"deb": "/x.deb"}}, false},
		{[]tasks.Args{{"name": "a"}, {"name": "b", "bogus": 1}}, false},
	} {
		if _, ok := aptMergeable(c.items); ok != c.ok {
			t.Errorf("%v: ok=%v", c.items, ok)
		}
	}
}

func TestAptTouched(t *testing.T) {
	v := shared.Verdict{"cmd": `/usr/bin/apt-get -y -o "Dpkg::Options::=--force-confdef"    install 'a=1.0' 'vpkg' 'b=2:1.0~rc1' -t 'stable' -o APT::Install-Recommends=no`}
	if got := aptTouched(v, "present"); !reflect.DeepEqual(got, []string{"a", "vpkg", "b"}) {
		t.Errorf("install: %q", got)
	}
	if got := aptTouched(shared.Verdict{"what": " 'a' 'b>=1'"}, "absent"); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("remove: %q", got)
	}
}

// TestPackageBatch: package hands a loop to apt's Batch; a manager that
// cannot batch, or items naming different managers, run one by one.
func TestPackageBatch(t *testing.T) {
	env, cc, state := fakeAptEnv(t, fakeRepo, nil)
	env.Eval = func(expr string) (any, error) { return "apt", nil }
	items := aptItems(tasks.Args{"state": "present"}, "a", "b")
	res, ok, err := packageModule{}.Batch(context.Background(), env, items)
	if err != nil || !ok || len(res) != 2 || !res[0].Changed || !res[1].Changed {
		t.Fatalf("ok=%v err=%v %+v", ok, err, res)
	}
	if cc.Runs != 1 || strings.Count(modtest.FakeLog(t, state), "apt-get ") != 1 {
		t.Errorf("%d round trips; apt log:\n%s", cc.Runs, modtest.FakeLog(t, state))
	}
	for _, items := range [][]tasks.Args{
		aptItems(tasks.Args{"state": "present", "use": "dnf"}, "a", "b"),
		{{"name": "a", "state": "present"}, {"name": "b", "state": "present", "use": "apt"}},
		{{"name": "a", "state": "present"}, {"name": "b"}},
	} {
		if _, ok, err := (packageModule{}).Batch(context.Background(), env, items); ok || err != nil {
			t.Errorf("%v: ok=%v err=%v", items, ok, err)
		}
	}
}

// TestAptUpdateCacheSameSecond: update_cache without cache_valid_time
// updates even when the cache was updated earlier in the same second, as
// Ansible's microsecond comparison does (a playbook that adds a source and
// updates right after a first update must see the new lists); only a
// cache time in the future spares it, as in Ansible. An update that
// leaves the cache's time in the same second says it changed the cache
// (told by the nanoseconds). With cache_valid_time, a cache that new is
// fresh enough.
func TestAptUpdateCacheSameSecond(t *testing.T) {
	if _, err := os.Stat("/var/lib/apt/lists"); err != nil {
		t.Skip("the script reads the cache's time from /var/lib/apt/lists, which this machine lacks")
	}
	now := time.Now().Unix()
	for _, c := range []struct {
		stamp  int64
		valid  int
		update bool
	}{{now, 0, true}, {now - 1, 0, true}, {now + 60, 0, false}, {now, 600, false}, {now - 601, 600, true}} {
		env, _, state := fakeAptEnv(t, fakeRepo, nil)
		if err := os.WriteFile(filepath.Join(state, "stamp"), []byte(strconv.FormatInt(c.stamp, 10)), 0o644); err != nil {
			t.Fatal(err)
		}
		if c.update && c.stamp == now {
			// The update lands in the cache's second: it changed the
			// cache all the same.
			os.WriteFile(filepath.Join(state, "same-second"), nil, 0o644)
		}
		res, err := aptModule{}.Run(context.Background(), env, tasks.Args{"update_cache": true, "cache_valid_time": c.valid})
		if err != nil || res.Failed {
			t.Fatalf("%+v: %v %+v", c, err, res)
		}
		ran := strings.Contains(modtest.FakeLog(t, state), " update")
		if ran != c.update || res.Changed != c.update || res.Data["cache_updated"] != c.update {
			t.Errorf("stamp %+d s from now, cache_valid_time %d: apt-get update ran %v, changed %v, cache_updated %v; want %v",
				c.stamp-now, c.valid, ran, res.Changed, res.Data["cache_updated"], c.update)
		}
	}
}
