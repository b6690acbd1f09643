package ssh

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"strings"

	"github.com/pkg/sftp"

	"github.com/tender-sh/tender/transport"
)

// sftpClient returns the connection's SFTP client, starting it (on one of
// the session slots, kept for the connection's life) on first use.
func (c *Conn) sftpClient(ctx context.Context) (*sftp.Client, error) {
	c.sftpMu.Lock()
	defer c.sftpMu.Unlock()
	if c.closed.Load() {
		return nil, errClosed
	}
	if c.sftp != nil {
		return c.sftp, nil
	}
	if c.noSFTP != nil {
		return nil, c.noSFTP
	}
	if err := c.acquire(ctx); err != nil {
		return nil, err
	}
	c.stats.channels.Add(1)
	cl, err := c.openSFTP()
	if err != nil {
		c.release()
		if isDead(c.dead) {
			return nil, c.broken("start sftp", err)
		}
		c.noSFTP = fmt.Errorf("%w: %v", errNoSFTP, err)
		return nil, c.noSFTP
	}
	c.sftp = cl
	return cl, nil
}

// openSFTP starts the sftp subsystem on a session of its own, as
// sftp.NewClient does, but writes to its channel in writeChunk pieces (an
// SFTP packet is up to 32 KiB, and the SSH library would keep buffers that
// large for the connection's life) and drains the server's stderr through
// smallDiscard.
func (c *Conn) openSFTP() (*sftp.Client, error) {
	sess, err := c.client.NewSession()
	if err != nil {
		return nil, err
	}
	sess.Stderr = smallDiscard{}
	w, err := sess.StdinPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	r, err := sess.StdoutPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	if err := sess.RequestSubsystem("sftp"); err != nil {
		sess.Close()
		return nil, err
	}
	cl, err := sftp.NewClientPipe(r, chunkedWriter{w})
	if err != nil {
		sess.Close()
		return nil, err
	}
	return cl, nil
}

// Put writes src to dst atomically; see transport.Conn. The data goes by
// SFTP to a temporary file next to dst (transport.UploadPrefix, then who
// wrote it), which gets its mode and is then renamed over dst
// (posix-rename@openssh.com, or mv when the server lacks that extension).
// On error the temporary file is removed; when the connection died, the
// next Put into that directory removes it, as it does every abandoned
// upload there (leftovers.go), concurrently with its own transfer and
// without waiting for it (Close does).
func (c *Conn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) (err error) {
	if c.closed.Load() {
		return errClosed
	}
	dir, base := path.Split(dst)
	if base == "" {
		return fmt.Errorf("%s: put %s: not a file name", c.name, dst)
	}
	cl, err := c.sftpClient(ctx)
	if errors.Is(err, errNoSFTP) {
		return c.putShell(ctx, dst, src, mode)
	}
	if err != nil {
		return fmt.Errorf("put %s: %w", dst, err)
	}
	tmp := uploadTemp(dir, base)
	inFlight.Store(tmp, true)
	defer inFlight.Delete(tmp)
	f, err := cl.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if err != nil {
		return c.broken("put "+dst, err)
	}
	c.sweeps.Add(1)
	go func() {
		defer c.sweeps.Done()
		c.sweep(cl, dir, tmp)
	}()
	defer func() {
		if err != nil {
			f.Close()
			if cl.Remove(tmp) != nil {
				c.unswept(dir)
			}
		}
	}()
	if _, err = io.Copy(f, transport.ContextReader{Ctx: ctx, R: src}); err != nil {
		return c.broken("put "+dst, err)
	}
	if err = f.Chmod(mode.Perm()); err != nil {
		return c.broken("put "+dst, err)
	}
	if err = f.Close(); err != nil {
		return c.broken("put "+dst, err)
	}
	if _, ok := cl.HasExtension("posix-rename@openssh.com"); ok {
		err = cl.PosixRename(tmp, dst)
	} else {
		err = c.mv(ctx, tmp, dst)
	}
	if err != nil {
		return c.broken("put "+dst, err)
	}
	return nil
}

// mv renames with the host's mv, which uses rename(2) and so replaces dst
// atomically, for SFTP servers whose rename refuses an existing target.
func (c *Conn) mv(ctx context.Context, from, to string) error {
	res, err := c.Run(ctx, transport.Cmd{Script: "mv -f -- " + transport.Quote(from) + " " + transport.Quote(to)})
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("mv: %s", strings.TrimSpace(string(res.Stderr)))
	}
	return nil
}

// Get copies the host's file src into dst; a missing file wraps
// fs.ErrNotExist.
func (c *Conn) Get(ctx context.Context, src string, dst io.Writer) error {
	if c.closed.Load() {
		return errClosed
	}
	cl, err := c.sftpClient(ctx)
	if errors.Is(err, errNoSFTP) {
		return c.getShell(ctx, src, dst)
	}
	if err != nil {
		return fmt.Errorf("get %s: %w", src, err)
	}
	f, err := cl.Open(src)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: get %s: %w", c.name, src, err)
		}
		return c.broken("get "+src, err)
	}
	defer f.Close()
	if _, err := io.Copy(transport.ContextWriter{Ctx: ctx, W: dst}, f); err != nil {
		return c.broken("get "+src, err)
	}
	return nil
}

// Dial opens a direct-tcpip channel to addr from the host's side.
func (c *Conn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if c.closed.Load() {
		return nil, errClosed
	}
	c.stats.channels.Add(1)
	nc, err := c.client.DialContext(ctx, network, addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, c.broken("dial "+addr, err)
	}
	return nc, nil
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
