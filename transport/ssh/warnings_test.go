package ssh

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport/ssh/sshtest"
)

// TestWarningsArgsTurnCheckingOff: ssh arguments that make tender accept
// any host key (accept-new into /dev/null) are warned about, naming the
// variable and the options; settings that still check keys are not.
func TestWarningsArgsTurnCheckingOff(t *testing.T) {
	t.Parallel()
	const off = "host keys are not checked: "
	for _, tc := range []struct {
		name             string
		common, extra    string
		flag             HostKeyPolicy
		knownHostsFlag   bool
		want             string // the warning's options part; "" for none
		connectsUnknown  bool   // an unknown key is accepted
		skipConnectCheck bool
	}{
		{name: "common", common: "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null",
			want: "ansible_ssh_common_args has -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null", connectsUnknown: true},
		{name: "extra", extra: "-oStrictHostKeyChecking=accept-new -o 'UserKnownHostsFile none'",
			want: "ansible_ssh_extra_args has -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=none", connectsUnknown: true},
		{name: "split", common: "-o StrictHostKeyChecking=off", extra: "-o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes",
			want: "ansible_ssh_common_args has -o StrictHostKeyChecking=off and ansible_ssh_extra_args has -o UserKnownHostsFile=/dev/null", connectsUnknown: true},
		{name: "flag accept-new", flag: HostKeyAcceptNew, common: "-o UserKnownHostsFile=/dev/null",
			want: "ansible_ssh_common_args has -o UserKnownHostsFile=/dev/null", connectsUnknown: true},
		// Refused keys, or keys recorded and checked next time: no warning.
		{name: "strict flag wins", flag: HostKeyStrict, common: "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"},
		{name: "known_hosts flag wins", knownHostsFlag: true, common: "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null", connectsUnknown: true},
		// (connecting would record the key in ~/.ssh/known_hosts)
		{name: "accept-new only", common: "-o StrictHostKeyChecking=no", connectsUnknown: true, skipConnectCheck: true},
		{name: "dev null only", common: "-o UserKnownHostsFile=/dev/null"},
		{name: "insecure flag", flag: HostKeyInsecure, common: "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null", connectsUnknown: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, sshtest.Options{})
			f.dialer.HostKeys = tc.flag
			f.dialer.KnownHosts = nil
			if tc.knownHostsFlag {
				f.dialer.KnownHosts = []string{filepath.Join(t.TempDir(), "known_hosts")}
			}
			tg := f.target()
			tg.Options = map[string]any{OptCommonArgs: tc.common, OptExtraArgs: tc.extra}
			var got string
			for _, w := range f.dialer.Warnings(tg) {
				if strings.HasPrefix(w, off) {
					got = w
				}
			}
			if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, off+tc.want+",") {
				t.Errorf("warning %q, want one with %q", got, tc.want)
			}
			if tc.skipConnectCheck {
				return
			}
			c, err := f.dialer.Connect(context.Background(), tg)
			if err == nil {
				c.Close()
			}
			if (err == nil) != tc.connectsUnknown {
				t.Errorf("connect to an unknown host: %v, want success %v", err, tc.connectsUnknown)
			}
		})
	}
}
