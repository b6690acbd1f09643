package sshtest

import (
	"net"
	"sync"
	"time"
)

// rateConn limits a connection to a number of bytes per second in each
// direction: after moving n bytes, a direction waits until n/rate seconds
// past the time its previous bytes were due, so bursts are not stored up
// while the link idles.
type rateConn struct {
	net.Conn
	rate        float64 // bytes per second
	read, write pacer
}

// pacer is one direction's schedule.
type pacer struct {
	mu   sync.Mutex
	next time.Time
}

func newRateConn(c net.Conn, bytesPerSecond int64) *rateConn {
	return &rateConn{Conn: c, rate: float64(bytesPerSecond)}
}

// wait blocks until n more bytes fit into the direction's budget.
func (p *pacer) wait(n int, rate float64) {
	p.mu.Lock()
	now := time.Now()
	if p.next.Before(now) {
		p.next = now
	}
	p.next = p.next.Add(time.Duration(float64(n) / rate * float64(time.Second)))
	until := p.next
	p.mu.Unlock()
	time.Sleep(time.Until(until))
}

// rateChunk bounds one paced write, so a large write is spread out
// instead of arriving at once after a long pause.
const rateChunk = 4 << 10

func (c *rateConn) Read(b []byte) (int, error) {
	if len(b) > rateChunk {
		b = b[:rateChunk]
	}
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.read.wait(n, c.rate)
	}
	return n, err
}

func (c *rateConn) Write(b []byte) (int, error) {
	written := 0
	for len(b) > 0 {
		k := min(len(b), rateChunk)
		c.write.wait(k, c.rate)
		n, err := c.Conn.Write(b[:k])
		written += n
		if err != nil {
			return written, err
		}
		b = b[k:]
	}
	return written, nil
}
