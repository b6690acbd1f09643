//go:build e2e

package ssh

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
)

// TestE2ERunAhead: on OpenSSH, scripts queued behind a Run run in order
// (under sudo with a password too), stop at the first that fails, and
// none runs once the connection closed before its turn.
func TestE2ERunAhead(t *testing.T) {
	port, key := startSSHD(t)
	known := filepath.Join(t.TempDir(), "known_hosts")
	d := &Dialer{KnownHosts: []string{known}, HostKeys: HostKeyAcceptNew, ConfigFile: "none", NoAgent: true}
	ctx := context.Background()
	conn := func(user string) *Conn {
		c, err := d.Connect(ctx, transport.Target{Name: "debian", Host: "127.0.0.1", Port: port, User: user, KeyFiles: []string{key}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c.(*Conn)
	}
	c := conn("root")
	mustRun(t, c, transport.Cmd{Script: "rm -rf /tmp/ahead; mkdir /tmp/ahead"})
	res, pend := runAhead(t, c, transport.Cmd{Script: "echo one"},
		transport.Cmd{Script: "cat >/tmp/ahead/two", Stdin: bytes.NewReader([]byte("2\x00\n"))},
		transport.Cmd{Script: "false"},
		transport.Cmd{Script: "touch /tmp/ahead/four"})
	if string(res.Stdout) != "one\n" {
		t.Fatalf("first: %+v", res)
	}
	for i, want := range []bool{true, true, false} {
		if _, ran := wait(t, pend[i]); ran != want {
			t.Errorf("script %d: ran %v", i+2, ran)
		}
	}
	if got := mustRun(t, c, transport.Cmd{Script: "od -c /tmp/ahead/two | head -1; ls /tmp/ahead"}); string(got.Stdout) != "0000000   2  \\0  \\n\ntwo\n" {
		t.Errorf("on the host: %q", got.Stdout)
	}

	ops := conn("ops")
	b := &transport.Become{Password: "ops-secret"}
	if _, err := ops.Run(ctx, transport.Cmd{Script: "true", Become: b}); err != nil {
		t.Skipf("no ops user in this image: %v", err)
	}
	_, pend = runAhead(t, ops, transport.Cmd{Script: "id -un", Become: b},
		transport.Cmd{Script: "id -un >/tmp/ahead/become; cat >>/tmp/ahead/become", Become: b, Stdin: bytes.NewReader([]byte("in\n"))})
	if _, ran := wait(t, pend[0]); !ran {
		t.Error("the script under sudo did not run")
	}
	if got := mustRun(t, c, transport.Cmd{Script: "cat /tmp/ahead/become"}); string(got.Stdout) != "root\nin\n" {
		t.Errorf("under sudo: %q", got.Stdout)
	}

	late := conn("root")
	runAhead(t, late, transport.Cmd{Script: "true"},
		transport.Cmd{Script: "sleep 1"},
		transport.Cmd{Script: "touch /tmp/ahead/late"})
	late.Close()
	time.Sleep(2 * time.Second)
	if got := mustRun(t, c, transport.Cmd{Script: "ls /tmp/ahead"}); bytes.Contains(got.Stdout, []byte("late")) {
		t.Error("a script queued on a closed connection ran")
	}
}
