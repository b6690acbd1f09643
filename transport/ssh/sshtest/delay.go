package sshtest

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// delayConn delivers what it reads from the network only after a fixed
// delay, preserving order, so every client-to-server message arrives late
// by the same amount: one round trip costs at least that delay.
type delayConn struct {
	net.Conn
	delay *atomic.Int64 // nanoseconds, read per chunk

	mu   sync.Mutex
	cond *sync.Cond
	q    []chunk
	err  error
	buf  []byte
}

type chunk struct {
	at   time.Time
	data []byte
}

func newDelayConn(c net.Conn, d *atomic.Int64) *delayConn {
	dc := &delayConn{Conn: c, delay: d}
	dc.cond = sync.NewCond(&dc.mu)
	go dc.pump()
	return dc
}

func (c *delayConn) pump() {
	for {
		b := make([]byte, 32*1024)
		n, err := c.Conn.Read(b)
		c.mu.Lock()
		if n > 0 {
			c.q = append(c.q, chunk{time.Now().Add(time.Duration(c.delay.Load())), b[:n]})
		}
		if err != nil {
			c.err = err
		}
		c.cond.Broadcast()
		c.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (c *delayConn) Read(p []byte) (int, error) {
	if len(c.buf) > 0 {
		n := copy(p, c.buf)
		c.buf = c.buf[n:]
		return n, nil
	}
	c.mu.Lock()
	for len(c.q) == 0 && c.err == nil {
		c.cond.Wait()
	}
	if len(c.q) == 0 {
		err := c.err
		c.mu.Unlock()
		return 0, err
	}
	ck := c.q[0]
	c.q = c.q[1:]
	c.mu.Unlock()
	time.Sleep(time.Until(ck.at))
	n := copy(p, ck.data)
	c.buf = ck.data[n:]
	return n, nil
}
