package agents

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"testing/fstest"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/sandbox"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
)

// Caller runs single operations on targets, outside any playbook: a
// module and its result (Call), a file put or fetched (Put, Get), a TCP
// connection opened from the target (Dial). Its methods are safe for
// concurrent use. Make one with NewCaller.
type Caller struct {
	opts CallOptions
}

// CallOptions are a Caller's settings; the zero value works.
type CallOptions struct {
	// Modules are the modules Call may run: nil means every builtin
	// module (tasks/builtin), a registry of the embedder's own choosing
	// narrows that.
	Modules *tasks.Registry
	// Connections reach the targets; nil means DefaultConnections().
	Connections *transport.Connections
	// Sandbox bounds what a call may do on the controller (the files
	// copy's src and fetch's dest name, lookups, the local connection),
	// as provision.Runner.Sandbox; nil allows everything.
	Sandbox *sandbox.Policy
	// Check runs modules in check mode (nothing changes); Diff asks them
	// for a diff (CallResult.Data["diff"]).
	Check, Diff bool
}

// NewCaller returns a Caller with opts, the defaults filled in.
func NewCaller(opts CallOptions) (*Caller, error) {
	if opts.Modules == nil {
		opts.Modules = builtin.Registry()
	}
	if opts.Connections == nil {
		opts.Connections = DefaultConnections()
	}
	if err := opts.Sandbox.Validate(); err != nil {
		return nil, err
	}
	return &Caller{opts: opts}, nil
}

// CallResult is what a module returned on a target.
type CallResult struct {
	// Host is the target's name.
	Host string
	// Status is ok, changed, failed, skipped or unreachable.
	Status provision.Status
	// Msg is the module's message (a failure's reason).
	Msg string
	// Data are the module's return values (rc, stdout, changed, ...).
	Data map[string]any
}

// Changed reports whether the module changed the target.
func (r *CallResult) Changed() bool { return r.Status == provision.StatusChanged }

// CallError is a call that did not succeed: the module failed, or the
// target could not be reached. errors.Is matches transport.ErrUnreachable,
// ErrAuth, ErrHostKey and ErrTimeout through Cause.
type CallError struct {
	Host string
	// Code is why, as a program tells it: task_failed, cancelled, or one
	// of the unreachable codes (auth, host_key, timeout, unreachable).
	Code ErrorCode
	Msg  string
	// Cause is the connection's error, for an unreachable target.
	Cause error
}

func (e *CallError) Error() string { return e.Host + ": " + string(e.Code) + ": " + e.Msg }

// Unwrap returns Cause.
func (e *CallError) Unwrap() error { return e.Cause }

// Call runs module with args on t and returns its result. args are
// taken as they are: strings in them are never templated, so a value
// from a user or a host cannot run a template on the controller. A
// module that fails, or a target that cannot be reached, gives a
// *CallError along with the result; an unknown module or arguments the
// module refuses give an error that names them.
func (c *Caller) Call(ctx context.Context, t provision.Target, module string, args map[string]any) (*CallResult, error) {
	return c.call(ctx, t, module, args, 0, c.opts.Modules)
}

// call runs module with args on t from the registry reg, in the
// background for at most async seconds when async > 0.
func (c *Caller) call(ctx context.Context, t provision.Target, module string, args map[string]any, async int, reg *tasks.Registry) (*CallResult, error) {
	pb, err := c.callPlaybook(module, args, async, reg)
	if err != nil {
		return nil, err
	}
	r := &provision.Runner{Modules: reg, Connections: c.opts.Connections, Sandbox: c.opts.Sandbox,
		Forks: 1, Check: c.opts.Check, Diff: c.opts.Diff}
	if err := r.AddTarget(t); err != nil {
		return nil, err
	}
	var res *CallResult
	var fail *CallError
	r.Events = func(e provision.Event) {
		if e.Kind != provision.HostResult || e.IsItem || e.Host != t.Name {
			return
		}
		res = &CallResult{Host: e.Host, Status: e.Status, Msg: e.Msg, Data: e.Result}
		if e.Status == provision.StatusFailed || e.Status == provision.StatusUnreachable {
			fail = &CallError{Host: e.Host, Code: eventCode(e), Msg: e.Msg, Cause: e.Cause}
		}
	}
	_, err = r.Run(ctx, pb)
	switch {
	case ctx.Err() != nil:
		return res, &CallError{Host: t.Name, Code: CodeCancelled, Msg: ctx.Err().Error(), Cause: ctx.Err()}
	case err != nil:
		return res, fmt.Errorf("%s: %w", t.Name, err)
	case fail != nil:
		return res, fail
	case res == nil:
		return nil, fmt.Errorf("%s: %s gave no result", t.Name, module)
	}
	return res, nil
}

// Put copies the controller's file src to dest on t (the copy module:
// written whole or not at all, changed only when it differs); mode, when
// not empty, is its mode ("0644", "u=rw,go=r").
func (c *Caller) Put(ctx context.Context, t provision.Target, src, dest, mode string) (*CallResult, error) {
	args := map[string]any{"src": src, "dest": dest}
	if mode != "" {
		args["mode"] = mode
	}
	return c.Call(ctx, t, "copy", args)
}

// Get fetches the file src of t to dest on the controller (the fetch
// module, flat: dest is the file's path).
func (c *Caller) Get(ctx context.Context, t provision.Target, src, dest string) (*CallResult, error) {
	return c.Call(ctx, t, "fetch", map[string]any{"src": src, "dest": dest, "flat": true, "fail_on_missing": true})
}

// Dial opens a connection from t to addr ("tcp", "127.0.0.1:8080"),
// through the target's connection (for ssh, a direct-tcpip channel: the
// target's own network, its loopback included). Closing it closes the
// connection to the target too. An http.Transport whose DialContext
// calls it speaks HTTP from the target.
func (c *Caller) Dial(ctx context.Context, t provision.Target, network, addr string) (net.Conn, error) {
	vars, err := t.HostVars(c.opts.Connections)
	if err != nil {
		return nil, err
	}
	lookup := func(name string) (any, bool, error) {
		v, ok := vars[name]
		return v, ok, nil
	}
	conn, err := provision.ResolveConnection(c.opts.Connections, nil, t.Name, lookup, provision.ConnKeywords{})
	if err != nil {
		return nil, err
	}
	if transport.RunsOnController(conn.Dialer) {
		if err := c.opts.Sandbox.CheckLocal("target " + t.Name + " with connection " + conn.Type); err != nil {
			return nil, err
		}
	}
	tg := conn.Target
	if t.HasKey() {
		tg.Keys = []transport.Key{t.Key}
	}
	if c.opts.Sandbox != nil {
		tg.Files = c.opts.Sandbox
	}
	host, err := conn.Dialer.Connect(ctx, tg)
	if err != nil {
		return nil, &CallError{Host: t.Name, Code: unreachableCode(err), Msg: err.Error(), Cause: err}
	}
	nc, err := host.Dial(ctx, network, addr)
	if err != nil {
		host.Close()
		return nil, fmt.Errorf("%s: dial %s from the target: %w", t.Name, addr, err)
	}
	return &hostNetConn{Conn: nc, host: host}, nil
}

// callPlaybook is the one-task play Call runs: every host of its
// inventory (the target alone), no facts, the module with args, each
// string of them marked !unsafe. It is read by playbooks.Load as any
// playbook is, so the module and its arguments are checked as a task's.
func (c *Caller) callPlaybook(module string, args map[string]any, async int, reg *tasks.Registry) (*playbooks.Playbook, error) {
	argNode, err := literalNode(args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", module, err)
	}
	task := &yaml.Node{Kind: yaml.MappingNode}
	task.Content = append(task.Content, strNode("name"), strNode(module), strNode(module), argNode)
	if async > 0 {
		task.Content = append(task.Content, strNode("async"), intNode(async), strNode("poll"), intNode(0))
	}
	play := &yaml.Node{Kind: yaml.MappingNode}
	play.Content = append(play.Content, strNode("hosts"), strNode("all"), strNode("gather_facts"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"},
		strNode("tasks"), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{task}})
	text, err := yaml.Marshal(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{play}})
	if err != nil {
		return nil, err
	}
	const name = "call.yml"
	pb, err := playbooks.Load(name, playbooks.Options{Modules: reg, FS: fstest.MapFS{name: {Data: text}}, Sandbox: c.opts.Sandbox})
	if err != nil {
		var list playbooks.ErrorList
		if errors.As(err, &list) {
			// The positions are in a playbook nobody wrote.
			msgs := make([]error, len(list))
			for i, e := range list {
				msgs[i] = errors.New(e.Msg)
			}
			err = errors.Join(msgs...)
		}
		return nil, fmt.Errorf("%s: %w", module, err)
	}
	pb.Path, pb.Dir = name, "."
	return pb, nil
}

func intNode(n int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)}
}

func strNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
}

// literalNode is v as YAML, every string in it tagged !unsafe so that
// nothing templates it. Maps, lists, strings, booleans, numbers and nil
// are taken; anything else is an error.
func literalNode(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case string:
		n := strNode(x)
		n.Tag = "!unsafe"
		return n, nil
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			vn, err := literalNode(x[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			n.Content = append(n.Content, strNode(k), vn)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for i, e := range x {
			en, err := literalNode(e)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			n.Content = append(n.Content, en)
		}
		return n, nil
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return literalNode(l)
	case nil, bool, int, int64, int32, uint, uint32, uint64, float64, float32:
		n := &yaml.Node{}
		if err := n.Encode(x); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, fmt.Errorf("a value of type %T cannot be a module argument", v)
}

// hostNetConn is a connection opened from a target; closing it closes
// the connection to the target as well.
type hostNetConn struct {
	net.Conn
	host transport.Conn
}

func (c *hostNetConn) Close() error {
	err := c.Conn.Close()
	c.host.Close()
	return err
}
