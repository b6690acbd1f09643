package local_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/transporttest"
)

// TestBecomeConformance runs the whole conformance suite through a become
// view (with a stand-in sudo): scripts, Put and Get all go through sudo and
// must keep every promise of the contract.
func TestBecomeConformance(t *testing.T) {
	dir, log := transporttest.FakeSudo(t)
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
	transporttest.Run(t, transporttest.Suite{
		Open: func(t *testing.T) transport.Conn {
			c, err := local.Dialer{}.Connect(context.Background(), transport.Target{Name: "localhost"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return transport.WithBecome(c, &transport.Become{User: "app", Password: "pw secret"})
		},
	})
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "-u app --"); n < 10 {
		t.Fatalf("sudo ran only %d times as app:\n%s", n, data)
	}
	if strings.Count(string(data), "password: pw secret") != strings.Count(string(data), "args:") {
		t.Fatalf("some sudo runs did not get the password on stdin:\n%s", data)
	}
}
