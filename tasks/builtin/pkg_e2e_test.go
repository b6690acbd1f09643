//go:build e2e

package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/provision/transport"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// dockerConn reaches a container with docker exec: the package and
// service modules need a whole Debian host, which the e2e fleet's image
// is, but not SSH, which other tests cover. Scripts run as the SSH
// transport runs them (transport.Wrap): their text and environment on
// stdin, none of it on a command line.
type dockerConn struct{ id string }

func (c dockerConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	w, err := transport.Wrap(cmd)
	if err != nil {
		return transport.Result{}, err
	}
	x := exec.CommandContext(ctx, "docker", "exec", "-i", c.id, "/bin/sh", "-c", w.Command)
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
func (c dockerConn) Stream(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	x := exec.CommandContext(ctx, "docker", "exec", "-i", c.id, "sh", "-c", cmd.Script)
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

func (c dockerConn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	res, err := c.Run(ctx, transport.Cmd{Script: fmt.Sprintf(`t=$(mktemp %s.XXXXXX) && cat >"$t" && chmod %o "$t" && mv -f "$t" %s`,
		shared.Q(dst), mode.Perm(), shared.Q(dst)), Stdin: src})
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("put %s: %s", dst, res.Stderr)
	}
	return err
}

func (c dockerConn) Get(ctx context.Context, src string, dst io.Writer) error {
	res, err := c.Run(ctx, transport.Cmd{Script: "cat " + shared.Q(src)})
	if err == nil && res.ExitCode != 0 {
		return fmt.Errorf("get %s: %s: %w", src, res.Stderr, fs.ErrNotExist)
	}
	_, err = dst.Write(res.Stdout)
	return err
}

// Dial connects from inside the container with its netcat, as an SSH
// direct-tcpip channel connects from the host.
func (c dockerConn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || network != "tcp" {
		return nil, errors.New("dockerConn dials tcp host:port only")
	}
	x := exec.Command("docker", "exec", "-i", c.id, "nc", "-N", host, port)
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

func (c dockerConn) Close() error { return nil }

// fleetHost starts a fresh host of the e2e fleet's python image with the
// fleet's local apt repository, as e2e/fleet/docker-compose.yml runs it,
// and returns its container id; the container is removed at the end.
func fleetHost(t *testing.T) string {
	t.Helper()
	fleet, _ := filepath.Abs("../../e2e/fleet")
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

// pkgVolatile matches what differs between two runs of apt-get on
// identical hosts: transfer speeds and times.
var pkgVolatile = regexp.MustCompile(`Fetched [^\n]*|\d+(\.\d+)? [kMG]?B/s|\(\d+(\.\d+)?s\)`)

// TestPkgFidelity runs testdata/pkg/tasks.yml with tender's modules on a
// fresh fleet host and compares every result with what ansible-core 2.14
// registered on another fresh host of the same image
// (testdata/pkg/ansible.json, recorded by testdata/gen_pkg.sh).
//
// Normalization, on both sides, on top of TestFidelity's:
// cache_update_time becomes TIME; apt-get's transfer speeds and "Fetched"
// lines become SPEED; an uploaded archive's path in unarchive's
// extract_results.cmd becomes TMPSRC, as its src does.
func TestPkgFidelity(t *testing.T) {
	var want map[string]map[string]any
	b, err := os.ReadFile("testdata/pkg/ansible.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	id := fleetHost(t)
	files, _ := filepath.Abs("testdata/files")
	env, _ := testEnv(t, files, nil)
	env.Conn = dockerConn{id}
	scope := expr.NewVars(map[string]any{})
	seen := 0
	for _, task := range loadTaskList(t, "testdata/pkg/tasks.yml") {
		got := runRecorded(t, env, scope, task)
		w, ok := want[task.name]
		if !ok {
			t.Errorf("%s: not recorded; run testdata/gen_pkg.sh", task.name)
			continue
		}
		seen++
		g, wn := pkgNormalize(got), pkgNormalize(w)
		for _, k := range knownPkgDiffs[task.name] {
			delete(g, k)
			delete(wn, k)
		}
		if !reflect.DeepEqual(g, wn) {
			t.Errorf("%s:\n%s", task.name, describeDiff(g, wn))
		}
	}
	t.Logf("%d tasks compared with ansible-core", seen)
}

// httpVolatile are response keys that differ between two runs: the
// time of the request, and the served file's mtime (the host made it when
// the recording or the test started).
var httpVolatile = []string{"date", "elapsed", "last_modified"}

// knownPkgDiffs are the keys of a task's result left out of the
// comparison, each for a stated reason.
var knownPkgDiffs = map[string][]string{
	// tender's apt lacks upgrade, clean, autoclean and policy_rc_d, so
	// its list of supported parameters is shorter.
	"apt_bad_arg": {"msg"},
	// A refused connection reads as Python's errno text in Ansible and
	// as the transport's dial error in tender.
	"get_url_refused": {"msg"},
}

func pkgNormalize(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var c map[string]any
	json.Unmarshal(b, &c)
	for _, k := range httpVolatile {
		if _, ok := c[k]; ok {
			c[k] = "TIME"
		}
	}
	if _, ok := c["cache_update_time"]; ok {
		c["cache_update_time"] = "TIME"
	}
	for _, k := range []string{"stdout", "stderr"} {
		if s, ok := c[k].(string); ok {
			c[k] = pkgVolatile.ReplaceAllString(s, "SPEED")
			c[k+"_lines"] = shared.Lines(c[k].(string))
		}
	}
	if d, ok := c["diff"].(map[string]any); ok {
		if s, ok := d["prepared"].(string); ok {
			d["prepared"] = pkgVolatile.ReplaceAllString(s, "SPEED")
		}
	}
	if er, ok := c["extract_results"].(map[string]any); ok {
		if cmd, ok := er["cmd"].([]any); ok {
			for i, w := range cmd {
				m := map[string]any{"src": w}
				staging(m, "src")
				cmd[i] = m["src"]
			}
		}
	}
	if s, ok := c["msg"].(string); ok {
		c["msg"] = pkgVolatile.ReplaceAllString(s, "SPEED")
	}
	return normalize(c, "", "")
}

// TestAptRunLoop installs a loop's packages with one apt-get call on a
// fresh fleet host, and refuses items it cannot merge.
func TestAptRunLoop(t *testing.T) {
	id := fleetHost(t)
	env, cc := testEnv(t, t.TempDir(), nil)
	cc.Conn = dockerConn{id}
	env.Conn = cc
	if res := runMod(t, env, "apt", tasks.Args{"update_cache": true}); res.Failed {
		t.Fatal(res.Msg)
	}
	items := []tasks.Args{{"name": "tender-hello"}, {"name": "hello"}}
	before := cc.runs
	rs, ok, err := aptModule{}.RunLoop(context.Background(), env, items)
	if err != nil || !ok || len(rs) != 2 || !rs[0].Changed || !rs[1].Changed || cc.runs != before+1 {
		t.Fatalf("first: ok=%v err=%v %+v (%d round trips)", ok, err, rs, cc.runs-before)
	}
	if !strings.Contains(rs[0].Data["stdout"].(string), "tender-hello hello") && !strings.Contains(rs[0].Data["stdout"].(string), "hello tender-hello") {
		t.Errorf("not one apt-get for both: %s", rs[0].Data["stdout"])
	}
	rs, ok, _ = aptModule{}.RunLoop(context.Background(), env, append(items, tasks.Args{"name": "tree"}))
	if !ok || rs[0].Changed || rs[1].Changed || !rs[2].Changed {
		t.Errorf("second: %+v", rs)
	}
	if _, ok, _ = (aptModule{}).RunLoop(context.Background(), env, []tasks.Args{{"name": "pv"}, {"name": "pv", "state": "absent"}}); ok {
		t.Error("items with different states were merged")
	}
	if _, ok, _ = (aptModule{}).RunLoop(context.Background(), env, []tasks.Args{{"name": "pv"}, {"name": "no-such-package"}}); ok {
		t.Error("a loop with a missing package was merged")
	}
	if out, _ := exec.Command("docker", "exec", id, "dpkg-query", "-W", "pv").CombinedOutput(); !strings.Contains(string(out), "no packages found") {
		t.Errorf("a refused loop changed the host: %s", out)
	}
}
