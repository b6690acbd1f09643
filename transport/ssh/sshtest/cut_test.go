package sshtest

import (
	"io"
	"net"
	"testing"
	"time"
)

// TestCutProxy: an echo server behind the proxy gets the first n bytes
// clients send, and then nothing moves either way, though nothing closes.
func TestCutProxy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go io.Copy(c, c)
		}
	}()
	p, err := NewCutProxy(ln.Addr().String(), 5)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("abc")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := io.ReadAtLeast(c, buf, 3); err != nil || string(buf[:n]) != "abc" {
		t.Fatalf("before the cut: %q %v", buf[:n], err)
	}
	select {
	case <-p.Cut():
		t.Fatal("cut after 3 bytes of 5")
	default:
	}
	if _, err := c.Write([]byte("defgh")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Cut():
	case <-time.After(5 * time.Second):
		t.Fatal("no cut after 8 bytes of 5")
	}
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	n, err := c.Read(buf)
	if ne, ok := err.(net.Error); n != 0 || !ok || !ne.Timeout() {
		t.Errorf("after the cut: read %q, %v; want silence", buf[:n], err)
	}
}
