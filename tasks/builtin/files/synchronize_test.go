package files

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestSyncCmdLine checks rsync's command line, word for word in the
// module's order, for the options and their archive sub-flags.
func TestSyncCmdLine(t *testing.T) {
	cases := []struct {
		args  tasks.Args
		check bool
		rsh   string
		want  string
	}{
		{tasks.Args{}, false, "",
			"rsync --delay-updates -F --compress --archive --out-format='<<CHANGED>>%i %n%L' /s h:/d"},
		{tasks.Args{}, true, "ssh -x",
			"rsync --delay-updates -F --compress --dry-run --archive --rsh='ssh -x' --out-format='<<CHANGED>>%i %n%L' /s h:/d"},
		{tasks.Args{"delay_updates": false, "compress": false, "rsync_timeout": 5, "delete": true, "existing_only": true,
			"checksum": true, "copy_links": true, "recursive": false, "links": false, "perms": false, "times": false,
			"owner": false, "group": false, "dirs": true, "partial": true}, false, "",
			"rsync --timeout=5 --delete-after --existing --checksum --copy-links --archive --no-recursive --no-links " +
				"--no-perms --no-times --no-owner --no-group --dirs --partial --out-format='<<CHANGED>>%i %n%L' /s h:/d"},
		{tasks.Args{"archive": false, "recursive": true, "links": true, "perms": true, "times": true, "owner": true,
			"group": true, "rsync_path": "sudo rsync"}, false, "",
			"rsync --delay-updates -F --compress --recursive --links --perms --times --owner --group " +
				"--out-format='<<CHANGED>>%i %n%L' /s h:/d"},
		{tasks.Args{"archive": false, "recursive": false}, false, "",
			"rsync --delay-updates -F --compress --out-format='<<CHANGED>>%i %n%L' /s h:/d"},
		// rsync_opts carrying --rsh win over the module's.
		{tasks.Args{"rsync_opts": []any{"--rsh=ssh -p 2", "--exclude=*.o"}}, false, "mine",
			"rsync --delay-updates -F --compress --archive --rsh=ssh -p 2 --exclude=*.o --out-format='<<CHANGED>>%i %n%L' /s h:/d"},
	}
	for _, c := range cases {
		a, err := synchronizeArgs.Decode(mergeArgs(tasks.Args{"src": "/s", "dest": "h:/d"}, c.args))
		if err != nil {
			t.Fatal(err)
		}
		line, fail := syncCmdLine(a, "rsync", "/s", "h:/d", c.rsh, "", c.check)
		if fail != "" || line.Cmd != c.want {
			t.Errorf("%v:\n got %q %s\nwant %q", c.args, line.Cmd, fail, c.want)
		}
	}
	a, _ := synchronizeArgs.Decode(tasks.Args{"src": "/s", "dest": "h:/d", "rsync_opts": []any{""}})
	if line, _ := syncCmdLine(a, "rsync", "/s", "h:/d", "", "r p", false); len(line.Warnings) != 1 ||
		!strings.Contains(line.Cmd, "--rsync-path='r p'  --out-format") {
		t.Errorf("empty rsync_opts: %+v", line)
	}
}

// mergeArgs returns a with b's keys over it.
func mergeArgs(a, b tasks.Args) tasks.Args {
	out := tasks.Args{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestSyncLinkDest checks link_dest's words and the module's refusal of
// a link directory that holds the destination.
func TestSyncLinkDest(t *testing.T) {
	a, _ := synchronizeArgs.Decode(tasks.Args{"src": "/s", "dest": "/b/d", "link_dest": []any{"/a", "/c"}})
	line, fail := syncCmdLine(a, "rsync", "/s", "/b/d", "", "", false)
	if fail != "" || !line.LinkDest || !strings.Contains(line.Cmd, " -H -vv --link-dest=/a --link-dest=/c ") {
		t.Errorf("%+v %s", line, fail)
	}
	a, _ = synchronizeArgs.Decode(tasks.Args{"src": "/s", "dest": "/b/d", "link_dest": []any{"/b"}})
	if _, fail := syncCmdLine(a, "rsync", "/s", "/b/d", "", "", false); fail !=
		"Hardlinking into a subdirectory of the source would cause recursion. /b and /b/d" {
		t.Errorf("fail %q", fail)
	}
}

// TestSyncShlex checks the splitting of the command line as Python's
// shlex.split does it.
func TestSyncShlex(t *testing.T) {
	cases := map[string][]string{
		`a  'b c' "d \"e\" \x" f\ g`:  {"a", "b c", `d "e" \x`, "f g"},
		`--rsh='sh -c '"'"'x'"'"' n'`: {"--rsh=sh -c 'x' n"},
		`''`:                          {""},
	}
	for in, want := range cases {
		got, err := syncShlex(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q %v, want %q", in, got, err, want)
		}
	}
	if _, err := syncShlex(`a 'b`); err == nil {
		t.Error("unclosed quote accepted")
	}
	// The bridge survives the quoting and splitting round trip.
	got, err := syncShlex("--rsh=" + "'" + strings.ReplaceAll(syncBridgeRsh, "'", `'"'"'`) + "'")
	if err != nil || len(got) != 1 || got[0] != "--rsh="+syncBridgeRsh {
		t.Errorf("bridge: %q %v", got, err)
	}
}

// TestSyncExpand checks run_command's expansion of each word.
func TestSyncExpand(t *testing.T) {
	defer func(f func(string) (string, bool)) { syncLookupEnv = f }(syncLookupEnv)
	syncLookupEnv = func(n string) (string, bool) {
		v, ok := map[string]string{"HOME": "/home/u", "X": "x"}[n]
		return v, ok
	}
	for in, want := range map[string]string{"~": "/home/u", "~/a": "/home/u/a", "a~": "a~", "~b": "~b",
		"$X/${X}/$Y/$1": "x/x/$Y/$1"} {
		if got := syncExpandUser(syncExpandVars(in)); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

// TestSyncOutcome checks changed, msg and stdout_lines from rsync's
// output, with and without link_dest.
func TestSyncOutcome(t *testing.T) {
	out := "<<CHANGED>>>f+++++++++ a\n<<CHANGED>>cd+++++++++ d/\n"
	changed, msg, lines := syncOutcome(out, false)
	if !changed || msg != ">f+++++++++ a\ncd+++++++++ d/\n" || len(lines) != 2 || lines[1] != "cd+++++++++ d/" {
		t.Errorf("%v %q %q", changed, msg, lines)
	}
	if changed, _, lines := syncOutcome("", false); changed || len(lines) != 0 {
		t.Errorf("empty: %v %v", changed, lines)
	}
	if changed, _, _ := syncOutcome("sending\n<<CHANGED>>.d..t...... ./\n", true); changed {
		t.Error("link_dest: a dotted line counts as a change")
	}
	if changed, _, _ := syncOutcome("sending\n", true); !changed {
		t.Error("link_dest: no dotted line must count as a change")
	}
}

// TestSyncRemote checks the formatting of the host's side.
func TestSyncRemote(t *testing.T) {
	for _, c := range [][4]string{{"h", "/d", "u", "u@h:/d"}, {"h", "/d", "", "h:/d"},
		{"::1", "/d", "u", "[u@::1]:/d"}, {"h", "rsync://m/x", "u", "rsync://m/x"}} {
		if got := syncRemote(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("%v: %q", c, got)
		}
	}
}

// TestSyncResult checks the task's result for a failure and a success.
func TestSyncResult(t *testing.T) {
	line := syncLine{Cmd: "rsync x"}
	r := syncResult(line, 23, "", "rsync: oops\n", false)
	if !r.Failed || r.Msg != "rsync: oops\n" || r.Data["rc"] != 23 || r.Data["cmd"] != "rsync x" {
		t.Errorf("%+v", r)
	}
	r = syncResult(line, 0, "<<CHANGED>>>f+++++++++ a\n", "", true)
	if !r.Changed || r.Msg != ">f+++++++++ a\n" || r.Data["diff"].(map[string]any)["prepared"] != r.Msg {
		t.Errorf("%+v", r)
	}
}

// TestSyncMissingPaths checks the action's own refusal.
func TestSyncMissingPaths(t *testing.T) {
	env, _ := modtest.TestEnv(t, t.TempDir(), nil)
	r, err := synchronizeModule{}.Run(context.Background(), env, tasks.Args{"src": "/a"})
	if err != nil || !r.Failed || r.Msg != "synchronize requires both src and dest parameters are set" {
		t.Errorf("%+v %v", r, err)
	}
	r, err = synchronizeModule{}.Run(context.Background(), env, tasks.Args{"src": "rsync://a/b", "dest": "rsync://c/d", "mode": "pull"})
	if err != nil || !r.Failed || r.Msg != "either src or dest must be a localhost" {
		t.Errorf("%+v %v", r, err)
	}
}

// TestSyncBridgeLocal pushes and pulls a tree through the bridge over
// the local transport (rsync's remote side runs as a script of the
// task's connection), checks idempotence, check mode and delete.
func TestSyncBridgeLocal(t *testing.T) {
	if _, err := exec.LookPath("rsync"); err != nil {
		t.Skip("no rsync on this machine")
	}
	dir := t.TempDir()
	src, dest := filepath.Join(dir, "src"), filepath.Join(dir, "dest")
	os.MkdirAll(filepath.Join(src, "sub"), 0o755)
	os.WriteFile(filepath.Join(src, "a"), []byte("a\n"), 0o644)
	os.WriteFile(filepath.Join(src, "sub", "b"), []byte("b\n"), 0o644)
	env, _ := modtest.TestEnv(t, dir, nil)
	run := func(check bool, args tasks.Args) tasks.Result {
		t.Helper()
		env.Check = check
		r, err := synchronizeModule{}.Run(context.Background(), env, args)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := run(true, tasks.Args{"src": src + "/", "dest": dest})
	if r.Failed || !r.Changed || modtest.Exists(dest) {
		t.Fatalf("check mode: %+v", r)
	}
	r = run(false, tasks.Args{"src": src + "/", "dest": dest})
	if r.Failed || !r.Changed || modtest.ReadFile(t, filepath.Join(dest, "sub", "b")) != "b\n" {
		t.Fatalf("push: %+v", r)
	}
	if !strings.Contains(r.Data["cmd"].(string), "localhost:"+dest) {
		t.Errorf("cmd %q", r.Data["cmd"])
	}
	if r = run(false, tasks.Args{"src": src + "/", "dest": dest}); r.Failed || r.Changed {
		t.Fatalf("second push: %+v", r)
	}
	os.WriteFile(filepath.Join(dest, "extra"), []byte("x"), 0o644)
	if r = run(false, tasks.Args{"src": src + "/", "dest": dest, "delete": true}); r.Failed || !r.Changed || modtest.Exists(filepath.Join(dest, "extra")) {
		t.Fatalf("delete: %+v", r)
	}
	back := filepath.Join(dir, "back")
	if r = run(false, tasks.Args{"src": dest + "/", "dest": back, "mode": "pull"}); r.Failed || !r.Changed || modtest.ReadFile(t, filepath.Join(back, "a")) != "a\n" {
		t.Fatalf("pull: %+v", r)
	}
	r = run(false, tasks.Args{"src": filepath.Join(dir, "nope"), "dest": dest})
	if !r.Failed || r.Data["rc"] != 23 || !strings.Contains(r.Msg, "No such file or directory") {
		t.Fatalf("missing src: %+v", r)
	}
	r = run(false, tasks.Args{"src": src, "dest": dest, "rsync_path": "/nonexistent/rsync"})
	if !r.Failed || !strings.Contains(r.Msg, "/nonexistent/rsync") {
		t.Fatalf("missing remote rsync: %+v", r)
	}
}

// TestSyncDelegateRsh checks the ssh command line a delegate's rsync is
// given, as the module builds it.
func TestSyncDelegateRsh(t *testing.T) {
	cases := []struct {
		s    syncSSH
		want string
	}{
		{syncSSH{}, "/usr/bin/ssh -S none -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"},
		{syncSSH{key: "/k ey", port: "2222", args: "-o A=b", multiplex: true, verify: true},
			"/usr/bin/ssh -i '/k ey' -o Port=2222 -o A=b"},
	}
	for _, c := range cases {
		if got := c.s.rsh("/usr/bin/ssh"); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}
