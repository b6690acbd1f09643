package sshtest

import (
	"net"
	"sync"
	"sync/atomic"
)

// CutProxy is a TCP proxy that forwards faithfully until its clients have
// sent a set number of bytes, over all their connections, and then goes
// silent both ways without closing anything, like a network cut in the
// middle of a transfer: the client notices only by its own timeouts.
// Close ends the silence by closing everything.
type CutProxy struct {
	proxy
	left    atomic.Int64 // bytes clients may still send
	cutOnce sync.Once
	cut     chan struct{}
}

// NewCutProxy listens on a free port of 127.0.0.1 and forwards each
// connection to target until clients have sent n bytes in all.
func NewCutProxy(target string, n int64) (*CutProxy, error) {
	p := &CutProxy{cut: make(chan struct{})}
	p.left.Store(n)
	err := p.start(target, func(a, b net.Conn) {
		p.forward(b, a, true)
		p.forward(a, b, false)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Cut is closed once the proxy has gone silent.
func (p *CutProxy) Cut() <-chan struct{} { return p.cut }

// forward copies src to dst until the cut; what clients send counts
// against the budget, and the part past it is dropped.
func (p *CutProxy) forward(dst, src net.Conn, counted bool) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				if counted {
					if left := p.left.Add(-int64(n)); left < 0 {
						p.cutOnce.Do(func() { close(p.cut) })
						_, _ = dst.Write(buf[:max(0, n+int(left))])
					}
				}
				select {
				case <-p.cut:
					return // silent: nothing closed, nothing more sent
				default:
				}
				if _, werr := dst.Write(buf[:n]); werr != nil {
					dst.Close()
					return
				}
			}
			if err != nil {
				dst.Close()
				return
			}
		}
	}()
}
