package ssh

import (
	"context"
	"strconv"
	"strings"
	"sync"

	xssh "golang.org/x/crypto/ssh"
)

// jumpPool shares connections to jump hosts: a hundred targets behind one
// bastion make one connection to it, not a hundred (which OpenSSH's
// MaxStartups would throttle). Entries are counted and closed with their
// last user, and forgotten when the connection ends.
type jumpPool struct {
	mu sync.Mutex
	m  map[string]*sharedJump
}

type sharedJump struct {
	ready  chan struct{} // closed once client or err is set
	client *xssh.Client
	err    error
	refs   int
}

// jumpKey names a jump hop by the whole chain leading to it.
func jumpKey(hops []*hop) string {
	var b strings.Builder
	for _, h := range hops {
		b.WriteString(h.user + "@" + h.host + ":" + strconv.Itoa(h.port) + ">")
	}
	return b.String()
}

// get returns the shared connection for key, dialing it with dial when
// there is none, and a release function to call when done with it.
func (p *jumpPool) get(ctx context.Context, key string, dial func() (*xssh.Client, error)) (*xssh.Client, func(), error) {
	p.mu.Lock()
	if p.m == nil {
		p.m = map[string]*sharedJump{}
	}
	j, ok := p.m[key]
	if !ok {
		j = &sharedJump{ready: make(chan struct{})}
		p.m[key] = j
	}
	j.refs++
	p.mu.Unlock()
	if !ok {
		j.client, j.err = dial()
		if j.err == nil {
			go func(cl *xssh.Client) {
				_ = cl.Wait()
				p.mu.Lock()
				if p.m[key] == j {
					delete(p.m, key)
				}
				p.mu.Unlock()
			}(j.client)
		}
		close(j.ready)
	}
	select {
	case <-j.ready:
	case <-ctx.Done():
		p.release(key, j)
		return nil, nil, ctx.Err()
	}
	if j.err != nil {
		p.release(key, j)
		return nil, nil, j.err
	}
	return j.client, func() { p.release(key, j) }, nil
}

func (p *jumpPool) release(key string, j *sharedJump) {
	p.mu.Lock()
	defer p.mu.Unlock()
	j.refs--
	if j.refs > 0 {
		return
	}
	if p.m[key] == j {
		delete(p.m, key)
	}
	if j.client != nil {
		j.client.Close()
	}
}

// closerFunc adapts a release function to io.Closer.
type closerFunc func()

func (f closerFunc) Close() error { f(); return nil }
