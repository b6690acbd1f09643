//go:build e2e

package system

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/ssh"
)

// sysImage is the fleet image the system modules are recorded on: Debian
// with python3 (for ansible-playbook), cron and kmod.
const sysImage = "tender-e2e/debian-sys"

// TestSystemFidelity runs testdata/system.yml (users, groups, crontabs,
// ...: tasks that need root and change the host) with tender's modules as
// root over SSH on a fresh container of the fleet's debian-sys image and
// compares every result with what ansible-core registered on another fresh
// container of the same image (testdata/ansible_system.json, recorded by
// testdata/gen_system.sh), normalized as TestFidelity does.
func TestSystemFidelity(t *testing.T) {
	fleetimage.Need(t, sysImage)
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "tender-e2e", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	out, err := exec.Command("docker", "run", "-d", "--hostname", "sysbox", "-p", "127.0.0.1::22",
		"-v", key+".pub:/etc/ssh/tender_authorized_keys:ro", sysImage).CombinedOutput()
	if err != nil {
		t.Fatalf("docker run: %v: %s", err, out)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", id).Run() })
	out, err = exec.Command("docker", "port", id, "22").Output()
	if err != nil {
		t.Fatalf("docker port: %v", err)
	}
	_, p, _ := net.SplitHostPort(strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]))
	port, _ := strconv.Atoi(p)
	waitBanner(t, port)
	d := &ssh.Dialer{KnownHosts: []string{filepath.Join(dir, "known_hosts")}, HostKeys: ssh.HostKeyAcceptNew,
		ConfigFile: "none", NoAgent: true}
	c, err := d.Connect(context.Background(), transport.Target{Name: "sys", Host: "127.0.0.1", Port: port,
		User: "root", KeyFiles: []string{key}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	files, _ := filepath.Abs("../testdata/files")
	env := &tasks.Env{Host: "sys", Conn: c}
	modtest.CompareRecorded(t, env, "/srv/t", files, "system.yml", "ansible_system.json")
}

// waitBanner waits until sshd answers on the loopback port.
func waitBanner(t *testing.T, port int) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		nc, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second)
		if err == nil {
			_ = nc.SetReadDeadline(time.Now().Add(2 * time.Second))
			buf := make([]byte, 8)
			n, _ := nc.Read(buf)
			nc.Close()
			if bytes.HasPrefix(buf[:n], []byte("SSH-2.0")) {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("sshd in the container did not answer within 30s")
}
