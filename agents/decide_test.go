package agents

import (
	"context"
	"crypto/md5"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testBundle() *Bundle {
	return &Bundle{Name: "a", Version: "2", Port: 7070, Probe: ProbeHost, Files: []File{
		{Dest: "/opt/a/bin", MD5: "11111111aaaa"}, {Dest: "/etc/init.d/a", MD5: "22222222bbbb"}}}
}

func TestDecideLocal(t *testing.T) {
	b := testBundle()
	same := []FileRecord{{Path: "/opt/a/bin", MD5: "11111111aaaa", Version: "2"}, {Path: "/etc/init.d/a", MD5: "22222222bbbb", Version: "2"}}
	for _, c := range []struct {
		name     string
		force    bool
		ledger   []FileRecord
		deployed bool
		action   Action // "" when a probe must decide
		reason   string
		init     bool
	}{
		{name: "forced beats everything", force: true, ledger: same, deployed: true, action: ActionForce, reason: "redeploy forced"},
		{name: "forced never deployed", force: true, action: ActionForce, init: true},
		{name: "never deployed", action: ActionNew, reason: "never deployed", init: true},
		{name: "same", ledger: same, deployed: true},
		{name: "md5", ledger: []FileRecord{{Path: "/opt/a/bin", MD5: "99999999", Version: "2"}, same[1]}, deployed: true,
			action: ActionUpgrade, reason: "/opt/a/bin changed (md5 99999999 → 11111111)"},
		{name: "new file", ledger: same[:1], deployed: true, action: ActionUpgrade, reason: "/etc/init.d/a is new in the bundle"},
		{name: "dropped file", ledger: append(append([]FileRecord{}, same...), FileRecord{Path: "/old", MD5: "x", Version: "2"}), deployed: true,
			action: ActionUpgrade, reason: "/old is no longer in the bundle"},
		{name: "version", ledger: []FileRecord{{Path: "/opt/a/bin", MD5: "11111111aaaa", Version: "1"}, {Path: "/etc/init.d/a", MD5: "22222222bbbb", Version: "1"}},
			deployed: true, action: ActionUpgrade, reason: "version 1 → 2"},
	} {
		d, done := decideLocal("h", b, c.force, c.ledger, c.deployed)
		if done != (c.action != "") || d.Action != c.action || !strings.Contains(d.Reason, c.reason) || d.Init != c.init {
			t.Errorf("%s: %+v done=%v", c.name, d, done)
		}
	}
}

func TestDecideProbe(t *testing.T) {
	b := testBundle()
	ok := map[string]string{"/opt/a/bin": "11111111aaaa", "/etc/init.d/a": "22222222bbbb"}
	for _, c := range []struct {
		name   string
		md5    map[string]string
		port   string
		health string
		status Status
		reason string
	}{
		{name: "in sync", md5: ok, port: "open", status: StatusInSync},
		{name: "port closed", md5: ok, port: "closed", status: StatusDown, reason: "port 7070 is not listening"},
		{name: "health", md5: ok, port: "open", health: "failed", status: StatusDown, reason: "the health command failed"},
		{name: "missing", md5: map[string]string{"/opt/a/bin": "missing", "/etc/init.d/a": "22222222bbbb"}, port: "closed",
			status: StatusDrifted, reason: "/opt/a/bin is missing; port 7070 is not listening"},
		{name: "changed", md5: map[string]string{"/opt/a/bin": "11111111aaaa", "/etc/init.d/a": "33333333"}, port: "open",
			status: StatusDrifted, reason: "/etc/init.d/a differs on the host (md5 33333333, want 22222222)"},
		{name: "unreadable", md5: map[string]string{"/opt/a/bin": "unreadable", "/etc/init.d/a": "22222222bbbb"}, port: "open",
			status: StatusDrifted, reason: "/opt/a/bin cannot be read"},
	} {
		d := decideProbe("h", b, &ProbeResult{MD5: c.md5, Port: c.port, Health: c.health})
		want := ActionRepair
		if c.status == StatusInSync {
			want = ActionSkip
		}
		if d.Status != c.status || d.Action != want || !strings.Contains(d.Reason, c.reason) || !d.Probed {
			t.Errorf("%s: %+v", c.name, d)
		}
	}
}

// runProbe runs b's probe script under sh here and parses its output.
func runProbe(t *testing.T, b *Bundle) *ProbeResult {
	t.Helper()
	out, err := exec.Command("sh", "-c", probeScript(b)).Output()
	if err != nil {
		t.Fatal(err)
	}
	r, err := parseProbe(b, out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return r
}

// TestProbeScript runs the probe under dash (the POSIX sh of Debian) on
// files that exist, are missing and cannot be hashed, and parses it.
func TestProbeScript(t *testing.T) {
	b := testBundle()
	dir := t.TempDir()
	b.Files = []File{{Dest: dir}, {Dest: dir + "/missing"}, {Dest: "/etc/hostname"}}
	b.Health = "exit 3"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.Port = ln.Addr().(*net.TCPAddr).Port
	r := runProbe(t, b)
	if r.MD5[dir] != md5Unreadable || r.MD5[dir+"/missing"] != md5Missing || len(r.MD5["/etc/hostname"]) != 32 {
		t.Errorf("md5s %v", r.MD5)
	}
	if r.Port != "open" || r.Health != "failed" {
		t.Errorf("listening: port %q health %q", r.Port, r.Health)
	}
	ln.Close()
	if r = runProbe(t, b); r.Port != "closed" {
		t.Errorf("after closing the listener: port %q", r.Port)
	}
	if _, err := parseProbe(b, []byte("f0=x\n")); err == nil {
		t.Error("a truncated probe output parsed")
	}
	if _, err := parseProbe(b, []byte("f0=x\nf1=x\nf2=x\nport=open\n")); err == nil {
		t.Error("a probe output without the health line parsed")
	}
}

// TestProbeScriptMD5s: the probe's MD5s, from one md5sum for all the
// files, are each file's own, in order, whatever the file's name (a
// leading dash, a newline, a backslash, a quote) and with a missing file
// among them.
func TestProbeScriptMD5s(t *testing.T) {
	dir := t.TempDir()
	names := []string{"plain", "-dash", "new\nline", "back\\slash", "it's", "missing", "empty"}
	b := testBundle()
	b.Port, b.Health, b.Files = 0, "", nil
	want := map[string]string{}
	for i, n := range names {
		p := filepath.Join(dir, n)
		b.Files = append(b.Files, File{Dest: p})
		if n == "missing" {
			want[p] = md5Missing
			continue
		}
		data := []byte(strings.Repeat(n, i))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want[p] = fmt.Sprintf("%x", md5.Sum(data))
	}
	if r := runProbe(t, b); !maps.Equal(r.MD5, want) {
		t.Errorf("md5s %q, want %q", r.MD5, want)
	}
}

// TestProbeHealthTimesOut: a health command that hangs is cut short and
// counts as failed.
func TestProbeHealthTimesOut(t *testing.T) {
	if _, err := exec.LookPath("timeout"); err != nil {
		t.Skip("no timeout(1)")
	}
	defer func(d time.Duration) { healthTimeout = d }(healthTimeout)
	healthTimeout = time.Second
	b := testBundle()
	b.Files = []File{{Dest: "/etc/hostname"}}
	b.Health = "sleep 30"
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", probeScript(b))
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the probe did not end: %v", err)
	}
	if r, err := parseProbe(b, out); err != nil || r.Health != "failed" {
		t.Errorf("%+v %v\n%s", r, err, out)
	}
}

func TestSummaryAndCount(t *testing.T) {
	ds := []Decision{{Action: ActionNew}, {Action: ActionUpgrade}, {Action: ActionUpgrade}, {Action: ActionSkip}, {Action: ActionUnreachable}}
	if got := Summary(ds); got != "5 hosts: 1 new, 2 upgrade, 0 repair, 1 up to date, 1 unreachable" {
		t.Errorf("Summary = %q", got)
	}
	for in, want := range map[string]int{"10": 10, "10%": 100, "1%": 10, "0": 0, "100%": 1000} {
		c, err := ParseCount(in)
		if err != nil || c.Of(1000) != want || c.String() != in {
			t.Errorf("ParseCount(%q) = %+v %v, Of(1000) = %d", in, c, err, c.Of(1000))
		}
	}
	if c, _ := ParseCount("10%"); c.Of(5) != 1 {
		t.Errorf("10%% of 5 = %d, want 1", c.Of(5))
	}
	for _, bad := range []string{"", "x", "-1", "101%", "5%%"} {
		if _, err := ParseCount(bad); err == nil {
			t.Errorf("ParseCount(%q) accepted", bad)
		}
	}
}
