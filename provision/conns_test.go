package provision

import (
	"bytes"
	"context"
	"testing"

	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// TestEnvConnStream: the task environment's view hands Stream on with
// the environment exported, as it does Run, so that expect works under
// environment:.
func TestEnvConnStream(t *testing.T) {
	c, err := local.Dialer{}.Connect(context.Background(), transport.Target{Name: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out bytes.Buffer
	v := withEnv(c, map[string]string{"A": "task", "B": "task"})
	res, err := transport.Stream(context.Background(), v, transport.Cmd{Script: `echo "$A $B"`, Env: map[string]string{"B": "module"}}, &out)
	if err != nil || res.ExitCode != 0 || out.String() != "task module\n" {
		t.Fatalf("Stream through the environment view: %v %+v %q", err, res, out.String())
	}
}
