package net

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

// TestUfwRuleLine checks the rule command lines built from parameters
// against those community.general 6.6.2's ufw listed in commands.
func TestUfwRuleLine(t *testing.T) {
	cases := []struct {
		args  tasks.Args
		check bool
		want  string // with insert N and the comment
	}{
		{tasks.Args{"rule": "allow", "port": "22", "proto": "tcp"}, false, "allow from any to any port 22 proto tcp"},
		{tasks.Args{"rule": "allow", "port": "22", "proto": "tcp"}, true, "--dry-run allow from any to any port 22 proto tcp"},
		{tasks.Args{"rule": "deny", "src": "10.0.0.0/8", "port": "3306", "comment": "no db"}, false,
			"deny from 10.0.0.0/8 to any port 3306 comment 'no db'"},
		{tasks.Args{"rule": "limit", "direction": "in", "interface": "eth0", "log": true, "from_port": "53", "to": ""}, false,
			"limit in on eth0 log from any port 53"},
		{tasks.Args{"rule": "allow", "route": true, "if_in": "eth0", "if_out": "eth1", "delete": true, "insert": 2}, false,
			"route delete allow in on eth0 out on eth1 from any to any"},
		{tasks.Args{"rule": "allow", "app": "OpenSSH", "insert": 3}, false, "insert 3 allow from any to any app 'OpenSSH'"},
	}
	for _, c := range cases {
		a, err := ufwArgs.Decode(c.args)
		if err != nil {
			t.Fatal(err)
		}
		j := &ufwJob{a: a, check: c.check}
		if err := j.planRule(); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		v := shared.Verdict{"ufw": "/usr/sbin/ufw", "cmt": "1"}
		if j.rule.hasInsert {
			v["ins"] = "3"
		}
		if got := j.display("rule", v); got != "/usr/sbin/ufw "+c.want {
			t.Errorf("%v:\n got %q\nwant %q", c.args, got, "/usr/sbin/ufw "+c.want)
		}
	}
	for _, comment := range []string{"it's", "a' 'b"} {
		a, _ := ufwArgs.Decode(tasks.Args{"rule": "allow", "comment": comment, "interface_in": "x'", "route": true})
		j := &ufwJob{a: a}
		if err := j.planRule(); err == nil {
			t.Errorf("comment %q: no error", comment)
		}
	}
}

// TestUfwJudges checks how the status and rules before (and a dry run)
// decide changed, as the module decides it.
func TestUfwJudges(t *testing.T) {
	active := "Status: active\nLogging: on (low)\nDefault: deny (incoming), allow (outgoing), disabled (routed)\nNew profiles: skip\n"
	off := "Status: active\nLogging: off\nDefault: deny (incoming), allow (outgoing), deny (routed)\n"
	inactive := "Status: inactive\n"
	logging := []struct {
		value, pre string
		want       bool
	}{
		{"low", active, false}, {"on", active, false}, {"medium", active, true}, {"off", active, true},
		{"off", off, false}, {"on", off, true}, {"low", inactive, true}, {"off", inactive, true},
	}
	for _, c := range logging {
		if got := ufwLoggingChanged(c.value, c.pre); got != c.want {
			t.Errorf("logging %s from %q: %v", c.value, c.pre, got)
		}
	}
	defaults := []struct {
		value, dir, pre string
		want            bool
	}{
		{"deny", "", active, false}, {"allow", "incoming", active, true}, {"allow", "outgoing", active, false},
		{"reject", "routed", active, false}, {"allow", "routed", off, true}, {"deny", "", inactive, true},
	}
	for _, c := range defaults {
		if got := ufwDefaultChanged(c.value, c.dir, c.pre); got != c.want {
			t.Errorf("default %s %s from %q: %v", c.value, c.dir, c.pre, got)
		}
	}
	states := []struct {
		state, pre  string
		check, want bool
	}{
		{"enabled", inactive, true, true}, {"enabled", active, true, false}, {"disabled", active, true, true},
		{"disabled", inactive, true, false}, {"enabled", inactive, false, false}, {"reloaded", active, false, true},
		{"reset", inactive, true, true},
	}
	for _, c := range states {
		if got := ufwStateChanged(c.state, c.pre, c.check); got != c.want {
			t.Errorf("state %s (check %v) from %q: %v", c.state, c.check, c.pre, got)
		}
	}
	pre := "### tuple ### allow tcp 22 0.0.0.0/0 any 0.0.0.0/0 in\n### tuple ### allow tcp 22 ::/0 any ::/0 in\n"
	dry4 := "*filter\n### tuple ### allow tcp 22 0.0.0.0/0 any 0.0.0.0/0 in\n-A ufw-user-input -p tcp --dport 22 -j ACCEPT\nCOMMIT\n"
	dry6 := "*filter\n### tuple ### allow tcp 22 ::/0 any ::/0 in\nCOMMIT\n"
	rules := []struct {
		from, to, dry string
		want          bool
	}{
		{"any", "any", "Skipping adding existing rule\nSkipping adding existing rule (v6)\n", false},
		{"any", "any", "Skipping adding existing rule\nRules updated\n", true},
		{"any", "any", dry4 + dry6, false},
		{"any", "any", dry4, true},
		{"10.0.0.1", "any", dry4, false},
		{"any", "2001:db8::/32", dry6, false},
		{"any", "2001:db8::/32", dry6 + "### tuple ### allow tcp 443 ::/0 any 2001:db8::/32 in\n", true},
	}
	for _, c := range rules {
		if got := ufwRuleChanged(c.from, c.to, pre, c.dry); got != c.want {
			t.Errorf("rule from %s to %s, dry run %q: %v", c.from, c.to, c.dry, got)
		}
	}
}

// fakeUfw is a ufw for the tests: $FAKE_STATE/active marks an enabled
// firewall, $FAKE_STATE/rules holds a tuple line for each rule (its
// words), $FAKE_STATE/numbered what status numbered prints.
const fakeUfw = `
echo "$*" >>"$FAKE_STATE/log"
r=$FAKE_STATE/rules
touch "$r"
case $* in
--version) [ -n "$FAKE_VER" ] && printf 'ufw %s\nCopyright 2008-2023\n' "$FAKE_VER"; exit 0 ;;
"status verbose")
	if [ -f "$FAKE_STATE/active" ]; then printf 'Status: active\nLogging: on (low)\n\n'; else echo 'Status: inactive'; fi
	exit 0 ;;
"status numbered") cat "$FAKE_STATE/numbered"; exit 0 ;;
"-f enable") touch "$FAKE_STATE/active"; echo 'Firewall is active and enabled on system startup'; exit 0 ;;
"-f disable") rm -f "$FAKE_STATE/active"; exit 0 ;;
*"port abc"*) echo 'ERROR: Bad port' >&2; exit 1 ;;
esac
dry=; [ "$1" = --dry-run ] && { dry=1; shift; }
[ "$1" = insert ] && shift 2
t="### tuple ### $*"
if grep -qxF -- "$t" "$r"; then echo 'Skipping adding existing rule'; exit 0; fi
if [ -n "$dry" ]; then cat "$r"; echo "$t"; else echo "$t" >>"$r"; echo 'Rule added'; fi
`

// fakeGrep reads the fake rules file for ufw's rules files.
const fakeGrep = `
case $1 in -h) PATH=/usr/bin:/bin exec grep -h '^### tuple' "$FAKE_STATE/rules" ;; esac
PATH=/usr/bin:/bin exec grep "$@"
`

// ufwEnv is an Env whose ufw and grep are fakeUfw and fakeGrep.
func ufwEnv(t *testing.T, ver string) (env *tasks.Env, bin, state string) {
	t.Helper()
	bin, state = modtest.FakeTools(t, map[string]string{"ufw": "FAKE_VER=" + ver + "\n" + fakeUfw, "grep": fakeGrep})
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	cc.Conn = modtest.FakeBinConn{Conn: cc.Conn, Dir: bin}
	return env, bin, state
}

// ufwDo runs the module with args, in check mode when check is set.
func ufwDo(t *testing.T, env *tasks.Env, check bool, args tasks.Args) tasks.Result {
	t.Helper()
	env.Check = check
	res, err := ufwModule{}.Run(context.Background(), env, args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return res
}

// TestUfwFlow runs the module's script on fake tools: the commands it
// lists, changed from the status and rules, check mode, the insert
// number read from status numbered, ufw's version and failures.
func TestUfwFlow(t *testing.T) {
	env, bin, state := ufwEnv(t, "0.36.2")
	u, g := filepath.Join(bin, "ufw"), filepath.Join(bin, "grep")
	grepCmd := g + " -h '^### tuple' " + ufwRulesFiles
	r := ufwDo(t, env, true, tasks.Args{"state": "enabled"})
	if !r.Changed || !reflect.DeepEqual(r.Data, map[string]any{"commands": []any{u + " status verbose", grepCmd}}) {
		t.Fatalf("enable check: %+v", r)
	}
	r = ufwDo(t, env, false, tasks.Args{"state": "enabled"})
	want := map[string]any{"commands": []any{u + " status verbose", grepCmd, u + " -f enable", u + " status verbose", grepCmd},
		"msg": "Status: active\nLogging: on (low)"}
	if !r.Changed || !reflect.DeepEqual(r.Data, want) {
		t.Fatalf("enable: %+v", r)
	}
	rule := tasks.Args{"rule": "allow", "port": "22", "comment": "ssh $HOME"}
	if r = ufwDo(t, env, true, rule); !r.Changed {
		t.Fatalf("rule check: %+v", r)
	}
	r = ufwDo(t, env, false, rule)
	cmds := r.Data["commands"].([]any)
	if !r.Changed || len(cmds) != 6 || cmds[2] != u+" --version" || cmds[3] != u+" allow from any to any port 22 comment 'ssh $HOME'" {
		t.Fatalf("rule: %+v", r)
	}
	home, _ := os.UserHomeDir()
	if b, _ := os.ReadFile(filepath.Join(state, "rules")); string(b) != "### tuple ### allow from any to any port 22 comment ssh "+home+"\n" {
		t.Fatalf("rules: %q", b)
	}
	if r = ufwDo(t, env, false, rule); r.Changed {
		t.Fatalf("rule again: %+v", r)
	}
	if r = ufwDo(t, env, true, rule); r.Changed {
		t.Fatalf("rule again, check mode: %+v", r)
	}
	// logging judged from the status: changed, and the rules not read again
	r = ufwDo(t, env, false, tasks.Args{"logging": "medium"})
	if cmds := r.Data["commands"].([]any); !r.Changed || len(cmds) != 4 || cmds[3] != u+" status verbose" {
		t.Fatalf("logging: %+v", r)
	}
	r = ufwDo(t, env, false, tasks.Args{"rule": "allow", "port": "abc"})
	if !r.Failed || r.Msg != "ERROR: Bad port\n" || len(r.Data["commands"].([]any)) != 4 {
		t.Fatalf("bad port: %+v", r)
	}
	r = ufwDo(t, env, false, tasks.Args{"state": "enabled", "rule": "allow", "direction": "incoming"})
	if !r.Failed || !strings.HasPrefix(r.Msg, "For rules, direction must be") {
		t.Fatalf("bad direction: %+v", r)
	}
}

// TestUfwInsertAndVersion checks the insert number read from status
// numbered, the comment left out by a ufw older than 0.35, and a
// version that cannot be read.
func TestUfwInsertAndVersion(t *testing.T) {
	env, _, _ := ufwEnv(t, "0.34")
	numbered := "Status: active\n\n     To    Action    From\n[ 1] 22/tcp   ALLOW IN   Anywhere\n[ 2] 80/tcp   ALLOW IN   Anywhere\n" +
		"[ 3] 22/tcp (v6)   ALLOW IN   Anywhere (v6)\n"
	cases := []struct {
		rel    string
		insert int
		want   string // the insert number, "" for none
	}{
		{"zero", 0, "0"}, {"first-ipv4", 1, "2"}, {"last-ipv4", 0, "2"}, {"first-ipv6", 0, "3"},
		{"last-ipv6", 0, "3"}, {"last-ipv6", 1, ""}, {"first-ipv4", -1, "0"},
	}
	for _, c := range cases {
		a, _ := ufwArgs.Decode(tasks.Args{"rule": "deny", "insert": c.insert, "insert_relative_to": c.rel, "comment": "x"})
		j := &ufwJob{a: a}
		script, err := j.script()
		if err != nil {
			t.Fatal(err)
		}
		// only the rule's steps matter here: status numbered is faked
		script = strings.Replace(script, `"$_u_ufw" status numbered`, "printf %s "+shared.Q(numbered), 1)
		out, err := shared.Run(context.Background(), env, script, nil)
		if err != nil {
			t.Fatal(err)
		}
		run := parseUfw(string(out.Stdout))
		if run.v["ins"] != c.want || run.v["cmt"] != "" || !strings.HasSuffix(j.display("rule", run.v), "deny from any to any") {
			t.Errorf("%s %d: ins %q cmt %q, %q", c.rel, c.insert, run.v["ins"], run.v["cmt"], j.display("rule", run.v))
		}
	}
	env2, _, _ := ufwEnv(t, "")
	r := ufwDo(t, env2, false, tasks.Args{"rule": "allow", "port": "22"})
	if !r.Failed || r.Msg != "Failed to get ufw version." || r.Data["rc"] != 0 {
		t.Fatalf("no version: %+v", r)
	}
}
