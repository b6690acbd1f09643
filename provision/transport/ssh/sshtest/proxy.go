package sshtest

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// DelayProxy is a TCP proxy that delays everything its clients send by a
// settable latency (this kernel has no netem), so tests and benchmarks can
// count round trips against any server, a real sshd included.
type DelayProxy struct {
	ln      net.Listener
	target  string
	latency atomic.Int64
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   []net.Conn
}

// NewDelayProxy listens on a free port of 127.0.0.1 and forwards each
// connection to target.
func NewDelayProxy(target string) (*DelayProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &DelayProxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is where clients connect.
func (p *DelayProxy) Addr() string { return p.ln.Addr().String() }

// Port is the proxy's port.
func (p *DelayProxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// SetLatency sets the delay added to client-to-server data from now on.
func (p *DelayProxy) SetLatency(d time.Duration) { p.latency.Store(int64(d)) }

// Close stops the proxy and closes its connections.
func (p *DelayProxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

func (p *DelayProxy) accept() {
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
		da := newDelayConn(a, &p.latency)
		p.wg.Add(2)
		go func() {
			defer p.wg.Done()
			_, _ = io.Copy(b, da)
			b.Close()
		}()
		go func() {
			defer p.wg.Done()
			_, _ = io.Copy(a, b)
			a.Close()
		}()
	}
}
