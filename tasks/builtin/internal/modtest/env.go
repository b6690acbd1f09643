package modtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pexpr "github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// CountingConn counts round trips (Run calls) and Puts, and keeps the
// last Run's command and result.
type CountingConn struct {
	transport.Conn
	Runs, Puts int
	Last       transport.Cmd
	LastOut    transport.Result
}

// Run implements transport.Conn for CountingConn. A Cmd whose Lib has a
// piece that was not registered is refused: every module test then
// checks that its pieces are among those TestLibPiecesOnlyDefineDistinctNames
// vets.
func (c *CountingConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	c.Runs++
	if err := registeredLib(cmd); err != nil {
		return transport.Result{}, err
	}
	c.Last = cmd
	out, err := c.Conn.Run(ctx, cmd)
	c.LastOut = out
	return out, err
}

func registeredLib(cmd transport.Cmd) error {
	for _, p := range cmd.Lib {
		if !shared.Registered(p) {
			first, _, _ := strings.Cut(p, "\n")
			return fmt.Errorf("modtest: Lib piece %q was not registered (shared.RegisterLib or shared.MainFunc)", first)
		}
	}
	return nil
}

// Stream counts as a round trip, as Run does.
func (c *CountingConn) Stream(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	c.Runs++
	if err := registeredLib(cmd); err != nil {
		return transport.Result{}, err
	}
	return transport.Stream(ctx, c.Conn, cmd, stdout)
}

// Put implements transport.Conn for CountingConn.
func (c *CountingConn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	c.Puts++
	return c.Conn.Put(ctx, dst, src, mode)
}

// TestEnv returns an Env on the local transport whose FindFile looks in
// files (a directory the test fills) and whose Eval reads vars.
func TestEnv(t testing.TB, files string, vars map[string]any) (*tasks.Env, *CountingConn) {
	t.Helper()
	c, err := local.Dialer{}.Connect(context.Background(), transport.Target{Name: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("TENDER_TEST_BUSYBOX") != "" {
		c = busyboxConn(t, c)
	}
	cc := &CountingConn{Conn: c}
	env := &tasks.Env{
		Host: "localhost",
		Conn: cc,
		FindFile: func(kind, name string) (string, error) {
			if filepath.IsAbs(name) {
				return name, nil
			}
			p := filepath.Join(files, name)
			if _, err := os.Stat(p); err != nil {
				return "", errors.New("Could not find or access '" + name + "'")
			}
			return p, nil
		},
		Eval: func(expr string) (any, error) {
			expr = strings.TrimSpace(expr)
			if v, ok := vars[expr]; ok {
				return v, nil
			}
			return nil, &pexpr.UndefinedError{Name: expr, Msg: "'" + expr + "' is undefined"}
		},
	}
	se := tasks.ScopeEnv(nil, pexpr.NewVars(vars))
	env.Template, env.Condition = se.Template, se.Condition
	return env, cc
}

// modules is the registry RunMod, RunRecorded and RunFleetTask look
// modules up in; each test package sets it with UseModules.
var modules *tasks.Registry

// UseModules sets the registry the helpers run modules from.
func UseModules(r *tasks.Registry) { modules = r }

// Modules returns the registry UseModules set.
func Modules() *tasks.Registry { return modules }

// Families returns a registry holding the modules each of regs (a
// family's Register) adds, for a family's tests to run modules of
// other families (shell, file) as the whole registry would.
func Families(regs ...func(*tasks.Registry)) *tasks.Registry {
	r := &tasks.Registry{}
	for _, reg := range regs {
		reg(r)
	}
	return r
}

// RunMod runs module name with args and fails the test on an error return.
func RunMod(t *testing.T, env *tasks.Env, name string, args tasks.Args) tasks.Result {
	t.Helper()
	f, ok := modules.Lookup(name)
	if !ok {
		t.Fatalf("no module %s", name)
	}
	res, err := f().Run(context.Background(), env, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return res
}

// ReadFile returns the controller file p's content, failing the test if it cannot be read.
func ReadFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Exists reports whether p exists (a link counts, whatever it points at).
func Exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// bbConn runs every script with busybox sh and only busybox's applets on
// PATH, to prove the scripts need nothing GNU (TENDER_TEST_BUSYBOX=1).
type bbConn struct {
	transport.Conn
	dir string
}

func busyboxConn(t testing.TB, c transport.Conn) transport.Conn {
	t.Helper()
	bb, err := exec.LookPath("busybox")
	if err != nil {
		t.Skip("TENDER_TEST_BUSYBOX set but no busybox")
	}
	dir := t.TempDir()
	out, err := exec.Command(bb, "--list").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range strings.Fields(string(out)) {
		os.Symlink(bb, filepath.Join(dir, name))
	}
	return &bbConn{Conn: c, dir: dir}
}

func (c *bbConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	f, err := os.CreateTemp(c.dir, ".script-*")
	if err != nil {
		return transport.Result{}, err
	}
	f.WriteString(cmd.Text())
	f.Close()
	defer os.Remove(f.Name())
	cmd.Script = "PATH=" + transport.Quote(c.dir) + " exec " + transport.Quote(c.dir+"/sh") + " " + transport.Quote(f.Name())
	return c.Conn.Run(ctx, cmd)
}
