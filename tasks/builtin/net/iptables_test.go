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
	"github.com/tender-sh/tender/transport"
)

// TestIptablesRule checks rules built from parameters against what
// ansible-core 2.14's construct_rule returned for the same ones.
func TestIptablesRule(t *testing.T) {
	cases := []struct {
		args tasks.Args
		want string
	}{
		{tasks.Args{"protocol": "tcp", "destination_port": "22", "jump": "ACCEPT"}, "-p tcp -j ACCEPT --destination-port 22"},
		{tasks.Args{"source": "!10.0.0.0/8", "in_interface": "!lo", "jump": "DROP", "comment": "no private"},
			"! -s 10.0.0.0/8 -j DROP ! -i lo -m comment --comment no private"},
		{tasks.Args{"match": []any{"!tcp", "multiport"}, "destination_ports": []any{"80", "443"}, "ctstate": []any{"NEW"}},
			"! -m tcp -m multiport -m multiport --dports 80,443 -m conntrack --ctstate NEW"},
		{tasks.Args{"match": []any{"state"}, "ctstate": []any{"ESTABLISHED", "RELATED"}, "jump": "ACCEPT"},
			"-m state -j ACCEPT --state ESTABLISHED,RELATED"},
		{tasks.Args{"tcp_flags": map[string]any{"flags": []any{"ALL"}, "flags_set": []any{"ACK", "SYN"}}, "syn": "negate"},
			"--tcp-flags ALL ACK,SYN ! --syn"},
		{tasks.Args{"jump": "tee", "gateway": "10.0.0.9", "src_range": "1.1.1.1-1.1.1.9"},
			"-j tee --gateway 10.0.0.9 -m iprange --src-range 1.1.1.1-1.1.1.9"},
		{tasks.Args{"match_set": "!blocked", "match_set_flags": "src", "limit": "5/s", "uid_owner": "!0", "gid_owner": "negate"},
			"-m set ! --match-set blocked src -m limit --limit 5/s -m owner ! --uid-owner 0 -m owner ! --gid-owner --gid-owner negate"},
		{tasks.Args{"reject_with": "tcp-reset", "icmp_type": "echo-request", "ip_version": "ipv6", "log_level": "info"},
			"--log-level info -j REJECT --reject-with tcp-reset --icmpv6-type echo-request"},
		{tasks.Args{"wait": "5", "protocol": "udp"}, "-w 5 -p udp"},
	}
	for _, c := range cases {
		c.args["chain"] = "INPUT"
		a, err := iptablesArgs.Decode(c.args)
		if err != nil {
			t.Fatal(err)
		}
		if a.Has("tcp_flags") {
			tf, _ := iptablesTCPFlags.Decode(a.Dict("tcp_flags"))
			a["tcp_flags"] = map[string]any{"flags": tf.Strings("flags"), "flags_set": tf.Strings("flags_set")}
		}
		r, err := iptablesRule(a)
		if got := strings.Join(append(iptablesWait(a.Str("wait")), r...), " "); err != nil || got != c.want {
			t.Errorf("%v:\n got %q (%v)\nwant %q", c.args, got, err, c.want)
		}
	}
}

// fakeIptables is an iptables for the tests: chains are files under
// $FAKE_STATE (TABLE.CHAIN holding its rules, TABLE.CHAIN.policy a
// built-in chain's policy), with iptables' messages for what it refuses.
const fakeIptables = `
echo "$*" >>"$FAKE_STATE/log"
[ "$1" = --version ] && { echo "iptables v${FAKE_VER:-1.8.9} (nf_tables)"; exit 0; }
t=$2 op=$3; shift 3
c=; [ $# -gt 0 ] && { c=$1; shift; }
f=$FAKE_STATE/$t.$c
[ "${1-}" = -w ] && shift 2
nochain() { echo "iptables: No chain/target/match by that name." >&2; exit 1; }
case $op in
-C) [ -f "$f" ] || { echo "iptables: Bad rule (does a matching rule exist in that chain?)." >&2; exit 1; }
	grep -qxF -- "$*" "$f" || { echo "iptables: Bad rule (does a matching rule exist in that chain?)." >&2; exit 1; } ;;
-A) [ -f "$f" ] || nochain; echo "$*" >>"$f" ;;
-I) [ -f "$f" ] || nochain
	n=1; case ${1-} in [0-9]*) n=$1; shift ;; esac
	[ "$n" -le $(($(wc -l <"$f") + 1)) ] || { echo "iptables: Index of insertion too big." >&2; exit 1; }
	awk -v n="$n" -v r="$*" 'NR == n { print r } { print } END { if (NR < n) print r }' "$f" >"$f.new" && mv "$f.new" "$f" ;;
-D) [ -f "$f" ] && grep -qxF -- "$*" "$f" || { echo "iptables: Bad rule (does a matching rule exist in that chain?)." >&2; exit 1; }
	awk -v r="$*" '$0 == r && !d { d = 1; next } { print }' "$f" >"$f.new" && mv "$f.new" "$f" ;;
-S) for g in "$FAKE_STATE/$t".*; do
		case $g in *.policy|*.new) continue ;; esac
		n=${g#"$FAKE_STATE/$t."}
		[ -z "$c" ] || [ "$n" = "$c" ] || continue
		if [ -f "$g.policy" ]; then echo "-P $n $(cat "$g.policy")"; else echo "-N $n"; fi
		sed "s/^/-A $n /" "$g"
	done
	[ -z "$c" ] || [ -f "$f" ] || nochain ;;
-L) [ -f "$f" ] || nochain
	if [ -f "$f.policy" ]; then echo "Chain $c (policy $(cat "$f.policy"))"; else echo "Chain $c (0 references)"; fi ;;
-P) [ -f "$f.policy" ] || { echo "iptables: Bad built-in chain name." >&2; exit 1; }; echo "$1" >"$f.policy" ;;
-F) if [ -n "$c" ]; then [ -f "$f" ] || nochain; : >"$f"; else for g in "$FAKE_STATE/$t".*; do case $g in *.policy) ;; *) : >"$g" ;; esac; done; fi ;;
-N) [ -f "$f" ] && { echo "iptables: Chain already exists." >&2; exit 1; }; : >"$f" ;;
-X) [ -f "$f" ] || nochain; [ -f "$f.policy" ] && { echo "iptables: Can't delete built-in chain." >&2; exit 1; }
	[ -s "$f" ] && { echo "iptables: Directory not empty." >&2; exit 1; }; rm "$f" ;;
esac
`

// iptablesEnv is an Env whose iptables and ip6tables are fakeIptables
// (never the machine's own), with an empty filter table.
func iptablesEnv(t *testing.T) (*tasks.Env, string) {
	t.Helper()
	bin, state := modtest.FakeTools(t, map[string]string{"iptables": fakeIptables, "ip6tables": fakeIptables})
	for _, c := range []string{"INPUT", "FORWARD", "OUTPUT"} {
		os.WriteFile(filepath.Join(state, "filter."+c), nil, 0o644)
		os.WriteFile(filepath.Join(state, "filter."+c+".policy"), []byte("ACCEPT\n"), 0o644)
	}
	env, cc := modtest.TestEnv(t, t.TempDir(), nil)
	cc.Conn = modtest.FakeBinConn{Conn: cc.Conn, Dir: bin}
	return env, state
}

func iptRun(t *testing.T, env *tasks.Env, check bool, args tasks.Args) tasks.Result {
	t.Helper()
	env.Check = check
	res, err := iptablesModule{}.Run(context.Background(), env, args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return res
}

func TestIptablesRuleStates(t *testing.T) {
	env, state := iptablesEnv(t)
	rule := tasks.Args{"chain": "INPUT", "protocol": "tcp", "destination_port": "22", "jump": "ACCEPT", "comment": "ssh $HOME"}
	chain := func() string { b, _ := os.ReadFile(filepath.Join(state, "filter.INPUT")); return string(b) }
	home, _ := os.UserHomeDir()
	want := "-p tcp -j ACCEPT --destination-port 22 -m comment --comment ssh " + home + "\n"

	if r := iptRun(t, env, true, rule); !r.Changed || r.Failed || chain() != "" {
		t.Fatalf("check mode: %+v, chain %q", r, chain())
	}
	r := iptRun(t, env, false, rule)
	wantData := map[string]any{"ip_version": "ipv4", "table": "filter", "chain": "INPUT", "flush": false, "state": "present",
		"chain_management": false, "rule": "-p tcp -j ACCEPT --destination-port 22 -m comment --comment ssh $HOME"}
	if !r.Changed || r.Failed || !reflect.DeepEqual(r.Data, wantData) || chain() != want {
		t.Fatalf("append: %+v, chain %q", r, chain())
	}
	if r := iptRun(t, env, false, rule); r.Changed || r.Failed {
		t.Fatalf("again: %+v", r)
	}
	ins := tasks.Args{"chain": "INPUT", "action": "insert", "rule_num": 1, "source": "10.0.0.1", "jump": "DROP"}
	if r := iptRun(t, env, false, ins); !r.Changed || !strings.HasPrefix(chain(), "-s 10.0.0.1 -j DROP\n") {
		t.Fatalf("insert: %+v, chain %q", r, chain())
	}
	bad := tasks.Args{"chain": "INPUT", "action": "insert", "rule_num": "9", "source": "10.0.0.2", "jump": "DROP"}
	if r := iptRun(t, env, false, bad); !r.Failed || r.Msg != "iptables: Index of insertion too big." || r.RC != 1 ||
		!strings.HasSuffix(r.Data["cmd"].(string), "iptables -t filter -I INPUT 9 -s 10.0.0.2 -j DROP") {
		t.Fatalf("insert past the end: %+v", r)
	}
	abs := tasks.Args{"chain": "INPUT", "source": "10.0.0.1", "jump": "DROP", "state": "absent"}
	if r := iptRun(t, env, false, abs); !r.Changed || chain() != want {
		t.Fatalf("delete: %+v, chain %q", r, chain())
	}
	if r := iptRun(t, env, false, abs); r.Changed || r.Failed {
		t.Fatalf("delete again: %+v", r)
	}
	if log := modtest.FakeLog(t, state); strings.Contains(log, "-w") {
		t.Fatalf("-w without wait:\n%s", log)
	}
}

func TestIptablesChains(t *testing.T) {
	env, state := iptablesEnv(t)
	exists := func(c string) bool { _, err := os.Stat(filepath.Join(state, "filter."+c)); return err == nil }
	mk := tasks.Args{"chain": "MINE", "jump": "RETURN", "chain_management": true}
	if r := iptRun(t, env, false, mk); !r.Changed || !exists("MINE") {
		t.Fatalf("create with a rule: %+v", r)
	}
	if r := iptRun(t, env, false, tasks.Args{"chain": "MINE", "state": "absent", "chain_management": true}); !r.Failed || r.Msg != "iptables: Directory not empty." {
		t.Fatalf("delete a chain with rules: %+v", r)
	}
	iptRun(t, env, false, tasks.Args{"chain": "MINE", "flush": true})
	if r := iptRun(t, env, false, tasks.Args{"chain": "MINE", "flush": true}); r.Changed {
		t.Fatalf("flush of an empty chain: %+v", r)
	}
	if r := iptRun(t, env, false, tasks.Args{"chain": "MINE", "state": "absent"}); r.Changed || !exists("MINE") {
		t.Fatalf("absent without chain_management: %+v", r)
	}
	if r := iptRun(t, env, true, tasks.Args{"chain": "MINE", "state": "absent", "chain_management": true}); !r.Changed || !exists("MINE") {
		t.Fatalf("delete in check mode: %+v", r)
	}
	if r := iptRun(t, env, false, tasks.Args{"chain": "MINE", "state": "absent", "chain_management": true}); !r.Changed || exists("MINE") {
		t.Fatalf("delete: %+v", r)
	}
	if r := iptRun(t, env, false, tasks.Args{"chain": "MINE", "state": "absent", "chain_management": true}); r.Changed || r.Failed {
		t.Fatalf("delete again: %+v", r)
	}
}

func TestIptablesPolicyAndFailures(t *testing.T) {
	env, state := iptablesEnv(t)
	pol := tasks.Args{"chain": "FORWARD", "policy": "DROP"}
	if r := iptRun(t, env, true, pol); !r.Changed {
		t.Fatalf("check mode: %+v", r)
	}
	if r := iptRun(t, env, false, pol); !r.Changed || modtest.ReadFile(t, filepath.Join(state, "filter.FORWARD.policy")) != "DROP\n" {
		t.Fatalf("policy: %+v", r)
	}
	if r := iptRun(t, env, false, pol); r.Changed || r.Failed {
		t.Fatalf("policy again: %+v", r)
	}
	iptRun(t, env, false, tasks.Args{"chain": "MINE", "jump": "RETURN", "chain_management": true})
	for _, c := range []struct {
		args tasks.Args
		msg  string
	}{
		{tasks.Args{"chain": "MINE", "policy": "DROP"}, "Can't detect current policy"},
		{tasks.Args{"protocol": "tcp"}, "Either chain or flush parameter must be specified."},
		{tasks.Args{"chain": "INPUT", "log_prefix": "x ", "jump": "DROP"}, "Logging options can only be used with the LOG jump target."},
		{tasks.Args{"chain": "INPUT", "source": ""}, "empty value for source (ansible-core fails on it with an IndexError)"},
		{tasks.Args{"chain": "INPUT", "match_set": "s"}, "match_set needs match_set_flags (ansible-core fails on it with a TypeError)"},
		{tasks.Args{"chain": "NOPE", "policy": "DROP"}, "iptables: No chain/target/match by that name."},
	} {
		if r := iptRun(t, env, false, c.args); !r.Failed || r.Msg != c.msg {
			t.Errorf("%v: %+v, want %q", c.args, r, c.msg)
		}
	}
	if _, err := (iptablesModule{}).Run(context.Background(), env, tasks.Args{"chain": "INPUT", "jump": "TEE"}); err == nil ||
		err.Error() != "jump is TEE but all of the following are missing: gateway" {
		t.Errorf("TEE without gateway: %v", err)
	}
	if r := iptRun(t, env, false, tasks.Args{"chain": "INPUT", "log_prefix": "x ", "protocol": "tcp"}); !r.Changed ||
		r.Data["rule"] != "-p tcp --log-prefix x " || !strings.HasSuffix(modtest.ReadFile(t, filepath.Join(state, "filter.INPUT")), "-p tcp -j LOG --log-prefix x \n") {
		t.Errorf("log_prefix implies -j LOG: %+v", r)
	}
}

func TestIptablesWait(t *testing.T) {
	env, state := iptablesEnv(t)
	rule := tasks.Args{"chain": "INPUT", "wait": "5", "protocol": "tcp"}
	iptRun(t, env, false, rule)
	if log := modtest.FakeLog(t, state); !strings.Contains(log, "-t filter -A INPUT -w 5 -p tcp\n") {
		t.Fatalf("wait on iptables 1.8.9:\n%s", log)
	}
	os.Remove(filepath.Join(state, "log"))
	env.Conn.(*modtest.CountingConn).Conn = envVarConn{env.Conn.(*modtest.CountingConn).Conn, "FAKE_VER=1.4.21"}
	iptRun(t, env, false, rule)
	if log := modtest.FakeLog(t, state); strings.Contains(log, "-w") {
		t.Fatalf("wait on iptables 1.4.21:\n%s", log)
	}
}

// envVarConn exports one NAME=value assignment into every script.
type envVarConn struct {
	transport.Conn
	set string
}

func (c envVarConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	cmd.Script = "export " + c.set + "\n" + cmd.Script
	return c.Conn.Run(ctx, cmd)
}

func TestPyCleanArgs(t *testing.T) {
	got := shared.PyCleanArgs([]string{"/sbin/iptables", "-m", "comment", "--comment", "a b", "--password", "s3", "pass=x", "it's"})
	if want := `/sbin/iptables -m comment --comment 'a b' --password '********' 'pass=********' 'it'"'"'s'`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
