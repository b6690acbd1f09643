package agents

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestEveryThirdOfTTL: renewals come one after another until stop, which
// waits for one under way; none comes after stop returns, after renew
// says false, or after ctx ends.
func TestEveryThirdOfTTL(t *testing.T) {
	d := &Deployer{opts: Options{LeaseTTL: 30 * time.Millisecond}}
	var n atomic.Int32
	inRenew, release := make(chan struct{}, 1), make(chan struct{})
	stop := d.everyThirdOfTTL(context.Background(), func() bool {
		if n.Add(1) == 3 {
			inRenew <- struct{}{}
			<-release
		}
		return true
	})
	select {
	case <-inRenew:
	case <-time.After(5 * time.Second):
		t.Fatalf("3 renewals did not come in 5 s (%d)", n.Load())
	}
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("stop returned while a renewal was under way")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-stopped
	after := n.Load()
	time.Sleep(60 * time.Millisecond)
	if n.Load() != after {
		t.Fatalf("renewals after stop: %d, then %d", after, n.Load())
	}

	var m atomic.Int32
	stop2 := d.everyThirdOfTTL(context.Background(), func() bool { m.Add(1); return false })
	time.Sleep(80 * time.Millisecond)
	stop2()
	if m.Load() != 1 {
		t.Fatalf("renew said false, yet it ran %d times", m.Load())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var k atomic.Int32
	stop3 := d.everyThirdOfTTL(ctx, func() bool { k.Add(1); return true })
	time.Sleep(40 * time.Millisecond)
	stop3()
	if k.Load() != 0 {
		t.Fatalf("renewals after ctx ended: %d", k.Load())
	}
}
