package docker_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/docker"
	"github.com/tender-sh/tender/transport/transporttest"
)

// fake returns a Dialer whose docker is testdata/docker, and the file
// that program logs the options it was given to.
func fake(t *testing.T) (docker.Dialer, string) {
	prog, err := filepath.Abs("testdata/docker")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "log")
	t.Setenv("FAKE_DOCKER_LOG", log)
	return docker.Dialer{Program: prog}, log
}

// TestConformance runs the transport conformance suite through docker
// exec's command line (a stand-in docker that runs the command here;
// e2e/docker_conn_test.go runs it against a real container).
func TestConformance(t *testing.T) {
	d, _ := fake(t)
	transporttest.Run(t, transporttest.Suite{
		Open: func(t *testing.T) transport.Conn {
			c, err := d.Connect(context.Background(), transport.Target{Name: "web", Host: "box"})
			if err != nil {
				t.Fatal(err)
			}
			return c
		},
	})
}

// TestOptions: the user, working directory, privileged flag and extra
// arguments reach docker's command line; extra_env reaches the script's
// environment, under the task's own.
func TestOptions(t *testing.T) {
	d, log := fake(t)
	c, err := d.Connect(context.Background(), transport.Target{Name: "web", Host: "box", User: "app", Options: map[string]any{
		"docker_extra_args": "-H unix:///run/other.sock", "working_dir": "/srv", "privileged": "yes",
		"extra_env": map[string]any{"A": "from-extra", "B": 2},
	}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(context.Background(), transport.Cmd{Script: `echo "$A $B"`, Env: map[string]string{"A": "from-task"}})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("run: %v %+v", err, res)
	}
	if got := strings.TrimSpace(string(res.Stdout)); got != "from-task 2" {
		t.Errorf("environment: got %q, want the task's A and extra_env's B", got)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"global -H unix:///run/other.sock", "-u app", "-w /srv", "privileged"} {
		if !strings.Contains(string(data), want+"\n") {
			t.Errorf("docker was not given %q:\n%s", want, data)
		}
	}
}

// TestUnreachable: a container that does not exist or does not run is
// unreachable at Connect; one that vanished afterwards, at Run.
func TestUnreachable(t *testing.T) {
	d, _ := fake(t)
	for _, name := range []string{"gone", "stopped"} {
		_, err := d.Connect(context.Background(), transport.Target{Name: "web", Host: name})
		if !errors.Is(err, transport.ErrUnreachable) || !strings.Contains(err.Error(), name) {
			t.Errorf("Connect %s: %v, want unreachable naming it", name, err)
		}
	}
	c, err := d.Connect(context.Background(), transport.Target{Name: "web", Host: "box"})
	if err != nil {
		t.Fatal(err)
	}
	c.(*docker.Conn).SetContainerForTest("vanished")
	if _, err := c.Run(context.Background(), transport.Cmd{Script: "true"}); !errors.Is(err, transport.ErrUnreachable) {
		t.Errorf("Run in a vanished container: %v, want unreachable", err)
	}
	// A script that exits 125 itself is a result, not a lost container.
	c.(*docker.Conn).SetContainerForTest("box")
	if res, err := c.Run(context.Background(), transport.Cmd{Script: "exit 125"}); err != nil || res.ExitCode != 125 {
		t.Errorf("exit 125: %v %+v", err, res)
	}
}

// TestBadOptions: options the connection cannot read are errors naming
// the variable.
func TestBadOptions(t *testing.T) {
	d, _ := fake(t)
	for opt, v := range map[string]any{"privileged": "maybe", "extra_env": "A=1", "docker_extra_args": `"unclosed`} {
		_, err := d.Connect(context.Background(), transport.Target{Name: "web", Host: "box", Options: map[string]any{opt: v}})
		if err == nil || !strings.Contains(err.Error(), "ansible_docker_"+strings.TrimPrefix(opt, "docker_")) {
			t.Errorf("%s=%v: %v", opt, v, err)
		}
	}
	if _, err := d.Connect(context.Background(), transport.Target{Name: "web", Host: "-rm"}); err == nil {
		t.Error("a container name that docker would read as an option was accepted")
	}
}
