package ssh

import (
	"context"
	"errors"
	"io"
	"io/fs"

	"github.com/tender-sh/tender/transport"
)

// errNoSFTP means the host has no SFTP subsystem; files then travel
// through scripts (putShell, getShell).
var errNoSFTP = errors.New("no sftp subsystem")

// putShell is Put for hosts without SFTP (see transport.PutByScript).
func (c *Conn) putShell(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	return transport.PutByScript(ctx, c.Run, c.name, dst, src, mode)
}

// getShell is Get for hosts without SFTP (see transport.GetByScript).
func (c *Conn) getShell(ctx context.Context, src string, dst io.Writer) error {
	return transport.GetByScript(ctx, c.Run, c.name, src, dst)
}
