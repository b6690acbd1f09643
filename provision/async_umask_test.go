package provision

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// TestAsyncJobKeepsUmask: a detached job's own bookkeeping files are
// private, but what the job creates gets the session's usual modes, as
// with Ansible's async wrapper (a file made with umask 022 is 0644).
func TestAsyncJobKeepsUmask(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	c, err := local.Dialer{}.Connect(context.Background(), transport.Target{Name: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out2 := filepath.Join(t.TempDir(), "umask")
	lc2 := &launchConn{Conn: c, id: "umask-test2", dir: asyncDir(nil)}
	if _, err := lc2.Run(context.Background(), transport.Cmd{Script: "umask >" + transport.Quote(out2)}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(out2)
		if err == nil && len(b) > 0 {
			if got := string(b); got == "0077\n" {
				t.Fatalf("the job ran with the launcher's private umask %q", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the job did not run")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st, err := os.Stat(filepath.Join(home, ".ansible_async")); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("job directory: %v %v", st, err)
	}
}
