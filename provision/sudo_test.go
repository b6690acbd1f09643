package provision_test

import (
	"testing"

	"github.com/tender-sh/tender/provision/transport/transporttest"
)

func fakeSudo(t *testing.T) (string, string) { return transporttest.FakeSudo(t) }
