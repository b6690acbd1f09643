package ssh

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
)

func TestParseCommonArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want options
	}{
		{"", options{}},
		{"-o ProxyJump=bastion", options{"proxyjump": {"bastion"}}},
		{"-oProxyJump=a,b -q", options{"proxyjump": {"a,b"}}},
		{`-o 'ProxyJump admin@gw:2222' -C`, options{"proxyjump": {"admin@gw:2222"}}},
		{`-o "StrictHostKeyChecking no" -o UserKnownHostsFile=/dev/null`, options{"stricthostkeychecking": {"no"}, "userknownhostsfile": {"/dev/null"}}},
		{"-J gw -p 2200 -l bob -i k1 -ik2", options{"proxyjump": {"gw"}, "port": {"2200"}, "user": {"bob"}, "identityfile": {"k1", "k2"}}},
		{`-o ProxyCommand="ssh -W %h:%p gw"`, options{"proxycommand": {"ssh -W %h:%p gw"}}},
	} {
		got, err := parseArgs(commonArgsVar, tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseArgs(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"-o", "-o 'unterminated", "-o NoValue"} {
		if _, err := parseArgs(commonArgsVar, bad); err == nil {
			t.Errorf("parseArgs(%q) must fail", bad)
		}
	}
}

// TestTargetArgsOrder: ssh_args come before ssh_common_args, and both
// before ssh_extra_args, so that the first value of an option wins as on
// ssh's command line; each is read from Target.Options.
func TestTargetArgsOrder(t *testing.T) {
	t.Parallel()
	tg := transport.Target{Options: map[string]any{OptArgs: "-o Port=1", OptCommonArgs: "-o Port=2 -o User=c", OptExtraArgs: "-o User=e -J gw"}}
	got, err := targetArgs(tg)
	want := options{"port": {"1", "2"}, "user": {"c", "e"}, "proxyjump": {"gw"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("targetArgs = %v, %v; want %v", got, err, want)
	}
	if got, err := targetArgs(transport.Target{}); err != nil || len(got) != 0 {
		t.Errorf("no options: %v, %v", got, err)
	}
	tg.Options[OptExtraArgs] = "-o 'unterminated"
	if _, err := targetArgs(tg); err == nil || !strings.HasPrefix(err.Error(), extraArgsVar+": ") {
		t.Errorf("a bad extra arg: %v", err)
	}
}

func TestParseJump(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][3]any{
		"gw":              {"", "gw", 0},
		"bob@gw:2200":     {"bob", "gw", 2200},
		"ssh://bob@gw:22": {"bob", "gw", 22},
		"[::1]:2222":      {"", "::1", 2222},
		"user@host@gw":    {"user@host", "gw", 0},
		"fe80::1":         {"", "fe80::1", 0},
	} {
		u, h, p, err := parseJump(in)
		if err != nil || u != want[0] || h != want[1] || p != want[2] {
			t.Errorf("parseJump(%q) = %q %q %d %v", in, u, h, p, err)
		}
	}
}

func TestProxyCommandJump(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ssh -W %h:%p bastion":                                     "bastion",
		"ssh -q -W %h:%p -l admin -p 2222 bastion":                 "admin@bastion:2222",
		"/usr/bin/ssh -o StrictHostKeyChecking=no -W %h:%p ops@gw": "ops@gw",
	} {
		if got, err := proxyCommandJump(in); err != nil || got != want {
			t.Errorf("proxyCommandJump(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"nc -X 5 -x proxy:1080 %h %p", "ssh bastion nc %h %p", "ssh -W %h:%p"} {
		if _, err := proxyCommandJump(bad); err == nil {
			t.Errorf("proxyCommandJump(%q) must be refused", bad)
		}
	}
}
