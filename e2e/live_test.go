//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/ssh"
)

// TestLiveOutputOnTheFleet: a 5-second task on a real host that prints
// the host's clock once a second, on stdout and on stderr in turn; with
// live output each line reaches the controller within 200 ms of its
// printing (the containers share the controller's clock), not at the
// task's end, marked with its stream.
func TestLiveOutputOnTheFleet(t *testing.T) {
	ctx := context.Background()
	hs := fl.own(t, "py6")
	dir := t.TempDir()
	pbPath := filepath.Join(dir, "live.yml")
	os.WriteFile(pbPath, []byte(`- hosts: all
  gather_facts: false
  tasks:
    - shell: for i in 1 2 3 4 5; do if [ $((i % 2)) = 0 ]; then date +%s.%N >&2; else date +%s.%N; fi; sleep 1; done
`), 0o644)
	reg := builtin.Registry()
	pb, err := playbooks.Load(pbPath, playbooks.Options{Modules: reg})
	if err != nil {
		t.Fatal(err)
	}
	pem, _ := os.ReadFile(fl.key)
	var mu sync.Mutex
	var lags []time.Duration
	var streams []bool
	r := &provision.Runner{Modules: reg, LiveOutput: true,
		Connections: transport.NewConnections().Add("ssh", &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{hs.known}, ConfigFile: "none", NoAgent: true}).Add("local", local.Dialer{}),
		Events: func(e provision.Event) {
			if e.Kind != provision.Output {
				return
			}
			printed, err := strconv.ParseFloat(e.Msg, 64)
			if err != nil {
				t.Errorf("line %q", e.Msg)
				return
			}
			mu.Lock()
			lags = append(lags, e.Time.Sub(time.Unix(0, int64(printed*1e9))))
			streams = append(streams, e.Stderr)
			mu.Unlock()
		}}
	if err := r.AddTarget(provision.Target{Name: "py6", Address: "127.0.0.1", Port: hs.host("py6").port, User: "root", Key: transport.Key{PEM: pem}}); err != nil {
		t.Fatal(err)
	}
	recap, err := r.Run(ctx, pb)
	if err != nil || recap.Failed() {
		t.Fatalf("%v %+v", err, recap)
	}
	if len(lags) != 5 {
		t.Fatalf("%d live lines, want 5", len(lags))
	}
	for i, lag := range lags {
		if lag > 200*time.Millisecond || lag < -50*time.Millisecond {
			t.Errorf("line %d reached the controller %v after it was printed, want within 200 ms", i+1, lag)
		}
		if streams[i] != (i%2 == 1) {
			t.Errorf("line %d came on stderr: %v", i+1, streams[i])
		}
	}
	t.Logf("live output lag per line: %v", lags)
}
