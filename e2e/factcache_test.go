//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/ssh"
)

// TestFactCacheSkipsGathering: with a jsonfile fact cache and gathering
// = smart, the second run of a play on a real host does not gather: it
// costs that host no script at all (the first costs the gathering), and
// its tasks see the cached facts.
func TestFactCacheSkipsGathering(t *testing.T) {
	ctx := context.Background()
	hs := fl.own(t, "py5")
	dialer := &tally{Dialer: &ssh.Dialer{HostKeys: ssh.HostKeyAcceptNew, KnownHosts: []string{hs.known}, ConfigFile: "none", NoAgent: true}}
	dir := t.TempDir()
	pbPath := filepath.Join(dir, "site.yml")
	os.WriteFile(pbPath, []byte(`- hosts: all
  tasks:
    - assert: {that: [ansible_hostname == 'py5', ansible_distribution == 'Debian']}
`), 0o644)
	reg := builtin.Registry()
	pb, err := playbooks.Load(pbPath, playbooks.Options{Modules: reg})
	if err != nil {
		t.Fatal(err)
	}
	cacheDir := filepath.Join(dir, "facts")
	pem, _ := os.ReadFile(fl.key)
	run := func() map[string]int {
		cache, err := provision.NewJSONFileCache(cacheDir, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		dialer.reset()
		r := &provision.Runner{Modules: reg, FactCache: cache, Defaults: provision.PlayDefaults{Gathering: "smart"},
			Connections: transport.NewConnections().Add("ssh", dialer).Add("local", local.Dialer{})}
		if err := r.AddTarget(provision.Target{Name: "py5", Address: "127.0.0.1", Port: hs.host("py5").port, User: "root", Key: transport.Key{PEM: pem}}); err != nil {
			t.Fatal(err)
		}
		recap, err := r.Run(ctx, pb)
		if err != nil || recap.Failed() {
			t.Fatalf("run: %v %+v", err, recap)
		}
		return dialer.run
	}
	if n := run()["py5"]; n < 1 {
		t.Fatalf("the first run ran %d scripts, want the gathering's", n)
	}
	if n := run()["py5"]; n != 0 {
		t.Fatalf("the second run ran %d scripts on the host, want none: its facts come from the cache", n)
	}
}
