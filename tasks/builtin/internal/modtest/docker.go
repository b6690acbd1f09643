package modtest

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/docker"
)

// DockerConn connects to the container id with tender's docker
// connection (transport/docker): the package and service
// modules need a whole Debian host, which the e2e fleet's image is, but
// not SSH, which other tests cover. The connection closes at the end of
// the test.
func DockerConn(t testing.TB, id string) transport.Conn {
	t.Helper()
	c, err := docker.Dialer{}.Connect(context.Background(), transport.Target{Name: id, Host: id})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// FleetHost starts a fresh host of the e2e fleet's python image with the
// fleet's local apt repository, as e2e/fleet/docker-compose.yml runs it,
// and returns its container id; the container is removed at the end.
func FleetHost(t *testing.T) string {
	t.Helper()
	fleet, _ := filepath.Abs(Path("../../e2e/fleet"))
	fleetimage.Need(t, "tender-e2e/debian-py")
	fleetimage.NeedApt(t)
	out, err := exec.Command("docker", "run", "-d", "--init",
		"-v", filepath.Join(fleet, "apt-sources.list")+":/etc/apt/sources.list:ro",
		"-v", filepath.Join(fleet, "../.fleet/apt")+":/srv/tender-apt:ro",
		"tender-e2e/debian-py", "sleep", "infinity").CombinedOutput()
	if err != nil {
		t.Fatalf("docker run: %v\n%s", err, out)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("docker", "rm", "-f", id).Run() })
	return id
}
