package modtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/provision/transport"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// DockerConn reaches a container with docker exec: the package and
// service modules need a whole Debian host, which the e2e fleet's image
// is, but not SSH, which other tests cover. Scripts run as the SSH
// transport runs them (transport.Wrap): their text and environment on
// stdin, none of it on a command line.
type DockerConn struct{ ID string }

// Run implements transport.Conn for DockerConn.
func (c DockerConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	w, err := transport.Wrap(cmd)
	if err != nil {
		return transport.Result{}, err
	}
	x := exec.CommandContext(ctx, "docker", "exec", "-i", c.ID, "/bin/sh", "-c", w.Command)
	x.Stdin = w.Stdin
	var out, errb bytes.Buffer
	x.Stdout, x.Stderr = &out, &errb
	err = x.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil
	}
	return transport.Result{ExitCode: x.ProcessState.ExitCode(), Stdout: out.Bytes(), Stderr: errb.Bytes()}, err
}

// Stream runs cmd with docker exec, passing its stdin and stdout as
// they come (transport.Streamer).
func (c DockerConn) Stream(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	x := exec.CommandContext(ctx, "docker", "exec", "-i", c.ID, "sh", "-c", cmd.Script)
	in, err := x.StdinPipe()
	if err != nil {
		return transport.Result{}, err
	}
	var errb bytes.Buffer
	x.Stdout, x.Stderr = stdout, &errb
	if err := x.Start(); err != nil {
		return transport.Result{}, err
	}
	if cmd.Stdin != nil {
		go func() { io.Copy(in, cmd.Stdin); in.Close() }()
	} else {
		in.Close()
	}
	err = x.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = nil
	}
	return transport.Result{ExitCode: x.ProcessState.ExitCode(), Stderr: errb.Bytes()}, err
}

// Put implements transport.Conn for DockerConn.
func (c DockerConn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	res, err := c.Run(ctx, transport.Cmd{Script: fmt.Sprintf(`t=$(mktemp %s.XXXXXX) && cat >"$t" && chmod %o "$t" && mv -f "$t" %s`,
		shared.Q(dst), mode.Perm(), shared.Q(dst)), Stdin: src})
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("put %s: %s", dst, res.Stderr)
	}
	return err
}

// Get implements transport.Conn for DockerConn.
func (c DockerConn) Get(ctx context.Context, src string, dst io.Writer) error {
	res, err := c.Run(ctx, transport.Cmd{Script: "cat " + shared.Q(src)})
	if err == nil && res.ExitCode != 0 {
		return fmt.Errorf("get %s: %s: %w", src, res.Stderr, fs.ErrNotExist)
	}
	_, err = dst.Write(res.Stdout)
	return err
}

// Dial connects from inside the container with its netcat, as an SSH
// direct-tcpip channel connects from the host.
func (c DockerConn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || network != "tcp" {
		return nil, errors.New("dockerConn dials tcp host:port only")
	}
	x := exec.Command("docker", "exec", "-i", c.ID, "nc", "-N", host, port)
	in, _ := x.StdinPipe()
	out, _ := x.StdoutPipe()
	if err := x.Start(); err != nil {
		return nil, err
	}
	ours, theirs := net.Pipe()
	go func() { io.Copy(theirs, out); theirs.Close() }()
	go func() { io.Copy(in, theirs); in.Close() }()
	go x.Wait()
	return ours, nil
}

// Close implements transport.Conn for DockerConn.
func (c DockerConn) Close() error { return nil }

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
