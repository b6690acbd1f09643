package agents_test

import (
	"context"
	"strings"
	"testing"
)

// InstallKey takes one authorized_keys line, nothing else. (It is run
// for real on the fleet, e2e/call_test.go: here it would write this
// machine's authorized_keys.)
func TestInstallKeyRefuses(t *testing.T) {
	c := newCaller(t)
	for _, line := range []string{"", "  \n", "ssh-ed25519 AAAA a\nssh-ed25519 AAAA b"} {
		if _, err := c.InstallKey(context.Background(), here, line); err == nil || !strings.Contains(err.Error(), "one authorized_keys line") {
			t.Errorf("%q: %v", line, err)
		}
	}
}
