package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/tender-sh/tender/provision/transport"
)

// errNoSFTP means the host has no SFTP subsystem; files then travel
// through scripts (putShell, getShell).
var errNoSFTP = errors.New("no sftp subsystem")

// putShell is Put for hosts without SFTP: the data goes on a script's
// stdin into a temporary file next to dst (transport.UploadPrefix and a
// random tail), whose size is checked before it gets its mode and is
// renamed over dst; the same script removes stale upload files there
// (transport.SweepUploads).
func (c *Conn) putShell(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	data, err := io.ReadAll(ctxReader{ctx, src})
	if err != nil {
		return fmt.Errorf("%s: put %s: %w", c.name, dst, err)
	}
	dir, _ := path.Split(dst)
	if dir == "" {
		dir = "./"
	}
	script := fmt.Sprintf(`%s
t=$(mktemp %s) || exit 1
if cat >"$t" && [ "$(wc -c <"$t")" -eq %d ] && chmod %o "$t" && mv -f -- "$t" %s; then exit 0; fi
rm -f -- "$t"
exit 1`, transport.SweepUploads(transport.Quote(dir)), transport.Quote(dir+transport.UploadPrefix+"XXXXXXXXXX"), len(data), mode.Perm(), transport.Quote(dst))
	res, err := c.Run(ctx, transport.Cmd{Script: script, Stdin: bytes.NewReader(data)})
	if err != nil {
		return fmt.Errorf("put %s: %w", dst, err)
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%s: put %s: %s", c.name, dst, strings.TrimSpace(string(res.Stderr)))
	}
	return nil
}

// getShell is Get for hosts without SFTP.
func (c *Conn) getShell(ctx context.Context, src string, dst io.Writer) error {
	q := transport.Quote(src)
	res, err := c.Run(ctx, transport.Cmd{Script: "[ -e " + q + " ] || exit 66\nexec cat -- " + q})
	if err != nil {
		return fmt.Errorf("get %s: %w", src, err)
	}
	switch res.ExitCode {
	case 0:
	case 66:
		return fmt.Errorf("%s: get %s: %w", c.name, src, fs.ErrNotExist)
	default:
		return fmt.Errorf("%s: get %s: exit %s: %s", c.name, src, strconv.Itoa(res.ExitCode), strings.TrimSpace(string(res.Stderr)))
	}
	_, err = dst.Write(res.Stdout)
	return err
}
