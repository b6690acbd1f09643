package local_test

import (
	"context"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
	"github.com/tender-sh/tender/transport/transporttest"
)

func TestConformance(t *testing.T) {
	transporttest.Run(t, transporttest.Suite{
		Open: func(t *testing.T) transport.Conn {
			c, err := local.Dialer{}.Connect(context.Background(), transport.Target{Name: "localhost"})
			if err != nil {
				t.Fatal(err)
			}
			return c
		},
	})
}
