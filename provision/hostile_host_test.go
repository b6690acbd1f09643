package provision_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/provision/facts"
	"github.com/tender-sh/tender/transport"
)

// hostileHost is a managed host an attacker controls. Whatever it is asked,
// it answers with payloads that would run a command on the controller if
// tender ever took them for a template or an expression: every script's
// stdout, stderr and exit code, every file it sends, its facts (hostname,
// distribution, kernel, environment variables and their names) and its
// custom facts (facts.d, JSON and INI). It runs nothing: a module's script
// is never executed, so any module can be pointed at it.
//
// Each payload, if evaluated, creates the file mark; a test of the suite
// fails if mark exists after its run. token is a string every payload
// holds, so a test can tell that a payload reached a module.
type hostileHost struct {
	mark, token string
	payloads    []string
	facts       []byte

	mu      sync.Mutex
	scripts int // scripts received
	carried int // scripts that carried a payload (its token) to the host
}

// newHostileHost makes a hostile host whose payloads touch a mark in a
// fresh directory of t's.
func newHostileHost(t *testing.T) *hostileHost {
	t.Helper()
	dir, err := os.MkdirTemp("", "tenderhostile")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	h := &hostileHost{mark: filepath.Join(dir, "MARK"), token: filepath.Base(dir)}
	touch := "'touch " + h.mark + "'"
	h.payloads = []string{
		"{{ lookup('pipe'," + touch + ") }}",
		"lookup('pipe'," + touch + ")",
		"{% if lookup('pipe'," + touch + ") %}{% endif %}",
		"{{ query('pipe', " + touch + ") }}{# c #}",
		"{%- set _ = lookup('pipe'," + touch + ") -%}",
		"lookup('pipe'," + touch + ") == 'x'",
		"debug msg={{ lookup('pipe'," + touch + ") }}",
		`{"msg": "{{ lookup('pipe',` + touch + `) }}", "{{ lookup('pipe',` + touch + `) }}": 1}`,
	}
	h.facts = h.factOutput(t)
	return h
}

// marked reports whether the mark exists: a payload was evaluated.
func (h *hostileHost) marked() bool {
	_, err := os.Stat(h.mark)
	return err == nil
}

// p returns payload i (cycling).
func (h *hostileHost) p(i int) string { return h.payloads[i%len(h.payloads)] }

// factOutput is a real host's fact script output (recorded in
// facts/testdata) with the host's chosen values put in: its name, kernel,
// distribution, every environment variable's value, an environment
// variable named by a payload, and two custom facts.
func (h *hostileHost) factOutput(t *testing.T) []byte {
	t.Helper()
	base, err := os.ReadFile("facts/testdata/hosts/tender-e2e_debian-sys/script.out")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	i := 0
	for _, l := range strings.Split(strings.TrimRight(string(base), "\n"), "\n") {
		kind, rest, _ := strings.Cut(l, "|")
		name, _, _ := strings.Cut(rest, "|")
		switch {
		case kind == "v" && (name == "nodename" || name == "kernel" || name == "kernel_version" || name == "user_id"):
			l = kind + "|" + name + "|" + h.p(i)
			i++
		case kind == "e":
			l = "e|" + name + "|" + h.p(i)
			i++
		case kind == "f" && strings.HasPrefix(name, "/etc/os-release") && strings.Contains(rest, "|NAME="):
			l = "f|" + name + `|NAME="` + h.p(i) + `"`
			i++
		}
		out = append(out, l)
	}
	custom, _ := json.Marshal(map[string]any{"p": h.p(0), h.p(1): "key", "list": []string{h.p(2), h.p(3)}})
	out = append(out,
		"e|HOSTILE|"+h.p(0),
		"e|"+h.p(1)+"|x",
		"o|local|/etc/ansible/facts.d/hostile.fact",
		"a|line|"+string(custom),
		"o|local|/etc/ansible/facts.d/hostini.fact",
		"a|line|[s]",
		"a|line|k = "+h.p(0),
	)
	return []byte(strings.Join(out, "\n") + "\n")
}

// Connect implements transport.Dialer.
func (h *hostileHost) Connect(context.Context, transport.Target) (transport.Conn, error) {
	return hostileConn{h}, nil
}

// hostileConn is one connection to a hostileHost.
type hostileConn struct{ h *hostileHost }

var _ transport.Conn = hostileConn{}

// Run answers a script without running it: the fact script with the
// host's facts, any other with payloads in one of four shapes (lines of
// text after tender's "ran" verdict; a JSON object whose values, keys and
// nested values are payloads; key=value lines; bare lines, the last two
// with a failing exit code), chosen by the script's hash so that the loops
// of the suite meet all four.
func (c hostileConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	if err := ctx.Err(); err != nil {
		return transport.Result{}, err
	}
	h := c.h
	var stdin []byte
	if cmd.Stdin != nil {
		stdin, _ = io.ReadAll(io.LimitReader(cmd.Stdin, 1<<20))
	}
	h.mu.Lock()
	h.scripts++
	if strings.Contains(cmd.Script, h.token) || bytes.Contains(stdin, []byte(h.token)) {
		h.carried++
	}
	h.mu.Unlock()
	if strings.Contains(cmd.Script, facts.Script[:120]) {
		return transport.Result{Stdout: h.facts}, nil
	}
	lines := []byte(strings.Join(h.payloads, "\n") + "\n")
	if strings.Contains(cmd.Script, "HOSTILE-TEXT") {
		return transport.Result{Stdout: append([]byte("tender=run\n"), lines...), Stderr: []byte(h.p(1))}, nil
	}
	if strings.Contains(cmd.Script, "HOSTILE-FILE") {
		// fetch's probe: the file's checksum, then its content.
		return transport.Result{Stdout: []byte(fmt.Sprintf("sum=%x\n--content--\n%s", sha1.Sum(lines), lines))}, nil
	}
	sum := fnv.New32a()
	sum.Write([]byte(cmd.Script))
	switch sum.Sum32() % 4 {
	case 0:
		// As a command that ran, in tender's own scripts' protocol.
		return transport.Result{Stdout: append([]byte("tender=run\n"), lines...), Stderr: []byte(h.p(1))}, nil
	case 3:
		return transport.Result{Stdout: lines, Stderr: []byte(h.p(1)), ExitCode: 2}, nil
	case 1:
		obj := map[string]any{"changed": true, "failed": false, "rc": 0, "msg": h.p(0), "stdout": h.p(1),
			"stderr": h.p(2), "state": h.p(3), "path": h.p(4), "results": []any{h.p(5)}, h.p(0): h.p(1),
			"nested": map[string]any{h.p(2): []any{h.p(3)}}}
		b, _ := json.Marshal(obj)
		return transport.Result{Stdout: append(b, '\n')}, nil
	default:
		var b strings.Builder
		for i, k := range []string{"changed", "rc", "msg", "state", "path", "stdout", "version"} {
			fmt.Fprintf(&b, "%s=%s\n", k, h.p(i))
		}
		return transport.Result{ExitCode: 1, Stdout: []byte(b.String()), Stderr: []byte(h.p(2))}, nil
	}
}

// Put accepts anything and keeps nothing.
func (c hostileConn) Put(ctx context.Context, _ string, src io.Reader, _ fs.FileMode) error {
	_, err := io.Copy(io.Discard, io.LimitReader(src, 64<<20))
	return errors.Join(err, ctx.Err())
}

// Get sends payloads as the file's content, whatever was asked for.
func (c hostileConn) Get(ctx context.Context, _ string, dst io.Writer) error {
	_, err := io.WriteString(dst, strings.Join(c.h.payloads, "\n")+"\n")
	return errors.Join(err, ctx.Err())
}

// Dial refuses: the host offers no network.
func (c hostileConn) Dial(context.Context, string, string) (net.Conn, error) {
	return nil, errors.New("hostile host: no network")
}

// Close implements transport.Conn.
func (c hostileConn) Close() error { return nil }
