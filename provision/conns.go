package provision

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net"

	"github.com/tender-sh/tender/transport"
)

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// localConn returns the run's connection to the control machine, for
// delegate_to: localhost.
func (rn *run) localConn(ctx context.Context) (transport.Conn, error) {
	if err := rn.r.Sandbox.CheckLocal("delegate_to: localhost"); err != nil {
		return nil, err
	}
	rn.localOnce.Do(func() {
		_, d, err := rn.r.Connections.Resolve(rn.r.Connections.Local())
		if err != nil {
			rn.localErr = fmt.Errorf("delegate_to localhost: %w", err)
			return
		}
		rn.local, rn.localErr = d.Connect(ctx, transport.Target{Name: "localhost"})
	})
	return rn.local, rn.localErr
}

// delegateHost returns the state of the host a task is delegated to (the
// implicit localhost when the inventory has none), for delegate_facts.
func (pr *playRun) delegateHost(name string) (*hostRun, error) {
	rn := pr.rn
	if h := rn.r.Inventory.Host(name); h != nil {
		return rn.host(h)
	}
	switch name {
	case "localhost", "127.0.0.1", "::1":
		rn.mu.Lock()
		im := rn.implicitLocal()
		rn.mu.Unlock()
		if im != nil {
			return im, nil
		}
	}
	return nil, fmt.Errorf("delegate_facts: no host %q in the inventory", name)
}

// delegate returns the connection to another inventory host, for
// delegate_to: HOST. The connection is that host's own, made with its
// variables.
func (rn *run) delegate(ctx context.Context, pr *playRun, name string) (transport.Conn, error) {
	h := rn.r.Inventory.Host(name)
	if h == nil {
		return nil, fmt.Errorf("delegate_to: no host %q in the inventory", name)
	}
	hr, err := rn.host(h)
	if err != nil {
		return nil, err
	}
	return hr.connect(ctx, rn, pr.scope(hr, nil, nil), ConnKeywords{})
}

// withEnv returns a view of c whose scripts get env exported (a module's
// own variables win over the task's environment).
func withEnv(c transport.Conn, env map[string]string) transport.Conn {
	return &envConn{Conn: c, env: env}
}

type envConn struct {
	transport.Conn
	env map[string]string
}

func (e *envConn) Run(ctx context.Context, cmd transport.Cmd) (transport.Result, error) {
	merged := maps.Clone(e.env)
	maps.Copy(merged, cmd.Env)
	cmd.Env = merged
	return e.Conn.Run(ctx, cmd)
}

// Stream exports the environment as Run does and hands the call on.
func (e *envConn) Stream(ctx context.Context, cmd transport.Cmd, stdout io.Writer) (transport.Result, error) {
	merged := maps.Clone(e.env)
	maps.Copy(merged, cmd.Env)
	cmd.Env = merged
	return transport.Stream(ctx, e.Conn, cmd, stdout)
}

func (e *envConn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	return e.Conn.Put(ctx, dst, src, mode)
}

func (e *envConn) Get(ctx context.Context, src string, dst io.Writer) error {
	return e.Conn.Get(ctx, src, dst)
}

func (e *envConn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	return e.Conn.Dial(ctx, network, addr)
}

// Close does nothing: the view does not own the connection.
func (e *envConn) Close() error { return nil }
