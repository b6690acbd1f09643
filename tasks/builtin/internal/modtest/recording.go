package modtest

import (
	"context"

	"github.com/tender-sh/tender/transport"
)

// RecordingConn records the scripts it is asked to run and answers each
// with an empty verdict.
type RecordingConn struct {
	transport.Conn
	Cmds []transport.Cmd
}

// Run implements transport.Conn for RecordingConn.
func (c *RecordingConn) Run(_ context.Context, cmd transport.Cmd) (transport.Result, error) {
	c.Cmds = append(c.Cmds, cmd)
	return transport.Result{Stdout: []byte("changed=0\n")}, nil
}
