package sshtest

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// proxy is what the test proxies share: a listener on 127.0.0.1 that
// connects each client to target and hands both ends to pipe, and a Close
// that ends everything.
type proxy struct {
	ln     net.Listener
	target string
	pipe   func(client, server net.Conn)
	wg     sync.WaitGroup
	mu     sync.Mutex
	conns  []net.Conn
}

func (p *proxy) start(target string, pipe func(client, server net.Conn)) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	p.ln, p.target, p.pipe = ln, target, pipe
	p.wg.Add(1)
	go p.accept()
	return nil
}

// Addr is where clients connect.
func (p *proxy) Addr() string { return p.ln.Addr().String() }

// Port is the proxy's port.
func (p *proxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// Close stops the proxy and closes its connections.
func (p *proxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

func (p *proxy) accept() {
	defer p.wg.Done()
	for {
		a, err := p.ln.Accept()
		if err != nil {
			return
		}
		b, err := net.Dial("tcp", p.target)
		if err != nil {
			a.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, a, b)
		p.mu.Unlock()
		p.pipe(a, b)
	}
}

// copyThenClose runs io.Copy(dst, src) on the proxy's wait group and
// closes dst when src ends.
func (p *proxy) copyThenClose(dst io.WriteCloser, src io.Reader) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_, _ = io.Copy(dst, src)
		dst.Close()
	}()
}

// DelayProxy is a TCP proxy that delays everything its clients send by a
// settable latency (this kernel has no netem), so tests and benchmarks can
// count round trips against any server, a real sshd included.
//
// It also counts turns: the times a client sent data after the server
// had sent some since the client last did (a connection's first data
// counts as one). A client that waits for each answer before it goes on
// makes one turn per round trip it pays for, the connection's handshake
// included (the TCP handshake is not counted).
type DelayProxy struct {
	proxy
	latency atomic.Int64
	turns   atomic.Int64
}

// NewDelayProxy listens on a free port of 127.0.0.1 and forwards each
// connection to target.
func NewDelayProxy(target string) (*DelayProxy, error) {
	p := &DelayProxy{}
	err := p.start(target, func(a, b net.Conn) {
		t := &turnConn{Conn: a, turns: &p.turns}
		t.answered.Store(true)
		p.copyThenClose(b, newDelayConn(t, &p.latency))
		p.copyThenClose(t, b)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// SetLatency sets the delay added to client-to-server data from now on.
func (p *DelayProxy) SetLatency(d time.Duration) { p.latency.Store(int64(d)) }

// Turns returns the turns counted so far, over every connection.
func (p *DelayProxy) Turns() int64 { return p.turns.Load() }

// turnConn is the client's end of a proxied connection, counting turns.
type turnConn struct {
	net.Conn
	turns    *atomic.Int64
	answered atomic.Bool // the server sent data since the client last did
}

func (t *turnConn) Read(b []byte) (int, error) {
	n, err := t.Conn.Read(b)
	if n > 0 && t.answered.Swap(false) {
		t.turns.Add(1)
	}
	return n, err
}

// Write marks the server's data as sent before it writes it: a client
// that reads it at once and sends its next request could otherwise be
// read, and found no answer before it, while this goroutine has yet to
// set the mark, and a round trip would go uncounted on a loaded machine.
func (t *turnConn) Write(b []byte) (int, error) {
	if len(b) > 0 {
		t.answered.Store(true)
	}
	return t.Conn.Write(b)
}
