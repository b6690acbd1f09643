package agents

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestGone(t *testing.T) {
	host, _ := os.Hostname()
	me, other := Owner(), Owner()
	if me == other {
		t.Errorf("two owners of one process share a name: %s", me)
	}
	if Gone(me) || Gone(other) {
		t.Errorf("an owner of this process is presumed gone: %s %s", me, other)
	}
	// An earlier run with this pid (a container's pid 1 run again).
	earlier := fmt.Sprintf("tender@%s:%d:deadbeef.1", host, os.Getpid())
	if strings.HasPrefix(me, strings.TrimSuffix(earlier, "deadbeef.1")+"deadbeef") {
		t.Skip("this run's nonce is deadbeef")
	}
	if !Gone(earlier) {
		t.Errorf("%s (same pid, other nonce) is not presumed gone", earlier)
	}
	for _, o := range []string{"tender@elsewhere:1:x.1", "someone", fmt.Sprintf("tender@%s:1", host)} {
		if Gone(o) {
			t.Errorf("%s presumed gone", o)
		}
	}
}
