// Package docker is the docker connection (ansible_connection=docker, or
// community.docker.docker): scripts run inside a running container through
// the docker command line's exec, as Ansible's docker connection plugin
// runs them, so the container needs sh and nothing else: no sshd, no
// Python. Files move through scripts (transport.PutByScript), and Dial
// relays through a program in the container (see Conn.Dial).
//
// What it reads of a host (see Dialer.Params): the container's name or ID
// from ansible_docker_host or ansible_host (the inventory hostname when
// neither is set), the user to run as from ansible_docker_user or
// ansible_user, and ansible_docker_extra_args (arguments of the docker
// command itself, such as -H tcp://host:2376), ansible_docker_working_dir,
// ansible_docker_privileged and ansible_docker_extra_env.
//
// When a call's context ends, the docker command's process group is
// killed; what it started inside the container may run on, as with
// Ansible's plugin, since docker exec does not pass the kill on.
package docker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tender-sh/tender/internal/boolean"
	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// Dialer opens docker connections. Its zero value runs "docker" from
// PATH.
type Dialer struct {
	// Program is the docker command line program; empty means docker.
	Program string
}

var (
	_ transport.Dialer = Dialer{}
	_ transport.Params = Dialer{}
)

// Params names the variables the docker connection reads, as
// community.docker's connection plugin documents them.
func (Dialer) Params() transport.ConnParams {
	return transport.ConnParams{
		Host: []string{"ansible_docker_host", "ansible_host"},
		User: []string{"ansible_docker_user", "ansible_user"},
		Options: []transport.ConnOption{
			{Name: "docker_extra_args", Vars: []string{"ansible_docker_extra_args"}},
			{Name: "working_dir", Vars: []string{"ansible_docker_working_dir"}},
			{Name: "privileged", Vars: []string{"ansible_docker_privileged"}},
			{Name: "extra_env", Vars: []string{"ansible_docker_extra_env"}},
		},
	}
}

// inspectTimeout bounds the check, at Connect, that the container runs.
const inspectTimeout = 30 * time.Second

// Connect checks that the container t.Host runs and returns a connection
// to it. A container that does not exist or does not run, or a docker
// that cannot be reached, is unreachable.
func (d Dialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	c, err := d.conn(t)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, inspectTimeout)
	defer cancel()
	argv := append(c.docker(), "inspect", "--type", "container", "--format", "{{.State.Running}}", "--", c.container)
	var out, errb bytes.Buffer
	p := exec.CommandContext(ctx, argv[0], argv[1:]...)
	p.Stdout, p.Stderr = &out, &errb
	if err := p.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, transport.Unreachable(t.Name, fmt.Errorf("docker container %s: %s", c.container, msg))
	}
	if strings.TrimSpace(out.String()) != "true" {
		return nil, transport.Unreachable(t.Name, fmt.Errorf("docker container %s is not running", c.container))
	}
	return c, nil
}

// conn builds the connection t's options describe, refusing options it
// cannot make sense of.
func (d Dialer) conn(t transport.Target) (*Conn, error) {
	c := &Conn{name: t.Name, program: d.Program, container: t.Host, user: t.User}
	if c.program == "" {
		c.program = "docker"
	}
	if c.container == "" {
		c.container = t.Name
	}
	if strings.HasPrefix(c.container, "-") {
		return nil, fmt.Errorf("%s: docker container name %q starts with a dash", t.Name, c.container)
	}
	for name, v := range t.Options {
		if v == nil {
			continue
		}
		var err error
		switch name {
		case "docker_extra_args":
			c.extra, err = shlex.Split(fmt.Sprint(v))
		case "working_dir":
			c.workdir = fmt.Sprint(v)
		case "privileged":
			c.privileged, err = boolOption(v)
		case "extra_env":
			c.env, err = envOf(v)
		default:
			err = fmt.Errorf("the docker connection has no option %s", name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: ansible_docker_%s: %w", t.Name, strings.TrimPrefix(name, "docker_"), err)
		}
	}
	return c, nil
}

// boolOption reads a boolean option as Ansible's configuration does.
func boolOption(v any) (bool, error) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	s := fmt.Sprint(v)
	if b, ok := boolean.Word(s); ok || s == "" {
		return b, nil
	}
	return false, fmt.Errorf("%q is not a boolean", fmt.Sprint(v))
}

// envOf reads extra_env: a mapping of variable names to values.
func envOf(v any) (map[string]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a mapping of variable names to values, got %T", v)
	}
	out := make(map[string]string, len(m))
	for k, val := range m {
		out[k] = fmt.Sprint(val)
	}
	return out, nil
}

// Conn runs scripts in one container. It is safe for concurrent use: each
// call runs docker exec of its own.
type Conn struct {
	name, program, container, user, workdir string
	extra                                   []string
	privileged                              bool
	env                                     map[string]string
	closed                                  atomic.Bool
}

var (
	_ transport.Conn     = (*Conn)(nil)
	_ transport.Streamer = (*Conn)(nil)
)

var errClosed = fmt.Errorf("docker connection is closed")

// docker is the docker command with the global arguments.
func (c *Conn) docker() []string {
	return append([]string{c.program}, c.extra...)
}

// exec is the docker exec command line, up to and including the
// container's name; interactive keeps stdin open.
func (c *Conn) exec() []string {
	argv := append(c.docker(), "exec", "-i")
	if c.user != "" {
		argv = append(argv, "-u", c.user)
	}
	if c.workdir != "" {
		argv = append(argv, "-w", c.workdir)
	}
	if c.privileged {
		argv = append(argv, "--privileged")
	}
	return append(argv, c.container)
}

// Run runs cmd with /bin/sh in the container. The script and its
// environment travel on docker exec's stdin, never on its command line
// (transport.Wrap); extra_env is exported before the task's environment,
// which wins.
func (c *Conn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	return c.run(ctx, cmd, nil)
}

// Stream runs cmd as Run does, passing its stdin on as it is read and its
// stdout as it arrives; see transport.Streamer.
func (c *Conn) Stream(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	return c.run(ctx, cmd, stdout)
}

func (c *Conn) run(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	if c.closed.Load() {
		return transport.Result{}, errClosed
	}
	if len(c.env) > 0 {
		env := maps.Clone(c.env)
		maps.Copy(env, cmd.Env)
		cmd.Env = env
	}
	p := local.Process{Name: c.name, Argv: append(c.exec(), "/bin/sh", "-c")}
	res, err := p.Run(ctx, cmd, stdout)
	if err == nil && res.ExitCode == 125 && dockerFailed(res.Stderr) {
		// docker exec's own failures: the container stopped or vanished.
		return transport.Result{}, transport.Unreachable(c.name, fmt.Errorf("docker exec: %s", strings.TrimSpace(string(res.Stderr))))
	}
	return res, err
}

// dockerFailed tells docker exec's own errors (exit 125 with a message
// from the docker command) from a script that exited 125.
func dockerFailed(stderr []byte) bool {
	s := string(stderr)
	return strings.Contains(s, "Error response from daemon") || strings.Contains(s, "Cannot connect to the Docker daemon")
}

// Put writes src to dst in the container atomically, through a script
// (transport.PutByScript).
func (c *Conn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	if c.closed.Load() {
		return errClosed
	}
	return transport.PutByScript(ctx, c.Run, c.name, dst, src, mode)
}

// Get copies the container's file src into dst.
func (c *Conn) Get(ctx context.Context, src string, dst io.Writer) error {
	if c.closed.Load() {
		return errClosed
	}
	return transport.GetByScript(ctx, c.Run, c.name, src, dst)
}

// Close marks the connection closed; later calls fail. Relays opened by
// Dial stay open until closed themselves.
func (c *Conn) Close() error {
	c.closed.Store(true)
	return nil
}

// OnController reports true: the docker command runs on the control
// machine, and the daemon it talks to can do anything there (see
// transport.Controller).
func (Dialer) OnController() bool { return true }
