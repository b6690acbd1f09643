package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"sync/atomic"
)

// WithBecome returns a view of c on which every call runs as the become
// user b describes: scripts get b unless they name their own, and files
// are written and read through sudo. Put sends the data on the sudo'd
// script's stdin into a temporary file beside dst, checks its size, sets
// its mode and renames it over dst, so the file is never seen half written
// and never passes through a place other users can read; the same script
// removes stale upload files a lost connection left there (SweepUploads). Closing the view
// makes the view unusable but leaves c open.
func WithBecome(c Conn, b *Become) Conn {
	if b == nil {
		return c
	}
	return &becomeConn{c: c, b: b}
}

type becomeConn struct {
	c      Conn
	b      *Become
	closed atomic.Bool
}

var errViewClosed = errors.New("become view is closed")

func (bc *becomeConn) Run(ctx context.Context, cmd Cmd) (Result, error) {
	if bc.closed.Load() {
		return Result{}, errViewClosed
	}
	if cmd.Become == nil {
		cmd.Become = bc.b
	}
	return bc.c.Run(ctx, cmd)
}

// exitMissing is the exit status the Get script uses for a missing file.
const exitMissing = 44

func (bc *becomeConn) Put(ctx context.Context, dst string, src io.Reader, mode fs.FileMode) error {
	// The whole source is read first: a source that fails half way must
	// not leave the host with a short file it takes for the whole one.
	data, size, err := spool(src)
	if err != nil {
		return fmt.Errorf("put %s: reading the source: %w", dst, err)
	}
	defer data.Close()
	script := fmt.Sprintf(`umask 077
dst=%s
dir=$(dirname "$dst")
%s
tmp=$(mktemp "$dir/%sXXXXXXXXXX") || exit 1
if cat >"$tmp" && [ "$(wc -c <"$tmp")" -eq %d ] && chmod %o "$tmp" && mv -f "$tmp" "$dst"; then exit 0; fi
rm -f "$tmp"
exit 1`, Quote(dst), SweepUploads(`"$dir"`), UploadPrefix, size, mode.Perm())
	res, err := bc.Run(ctx, Cmd{Script: script, Stdin: data})
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("put %s as %s: %s", dst, bc.user(), firstLine(res.Stderr, res.ExitCode))
	}
	return nil
}

func (bc *becomeConn) Get(ctx context.Context, src string, dst io.Writer) error {
	if bc.closed.Load() {
		return errViewClosed
	}
	script := fmt.Sprintf("[ -e %[1]s ] || exit %[2]d\nexec cat -- %[1]s", Quote(src), exitMissing)
	res, err := bc.Run(ctx, Cmd{Script: script})
	if err != nil {
		return err
	}
	switch res.ExitCode {
	case 0:
		_, err = dst.Write(res.Stdout)
		return err
	case exitMissing:
		return fmt.Errorf("get %s as %s: %w", src, bc.user(), fs.ErrNotExist)
	}
	return fmt.Errorf("get %s as %s: %s", src, bc.user(), firstLine(res.Stderr, res.ExitCode))
}

func (bc *becomeConn) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if bc.closed.Load() {
		return nil, errViewClosed
	}
	return bc.c.Dial(ctx, network, addr)
}

// Close closes the view; the connection under it stays open.
func (bc *becomeConn) Close() error {
	bc.closed.Store(true)
	return nil
}

// spoolInMemory is how much of a Put's source is kept in memory before
// the rest goes to a private temporary file.
const spoolInMemory = 1 << 20

// spool reads all of src and returns a reader over the same bytes and
// their count: from memory for small sources, from a 0600 temporary file
// (already unlinked) for large ones.
func spool(src io.Reader) (io.ReadCloser, int64, error) {
	var head bytes.Buffer
	n, err := io.CopyN(&head, src, spoolInMemory+1)
	if err == io.EOF {
		return io.NopCloser(&head), n, nil
	}
	if err != nil {
		return nil, 0, err
	}
	f, err := os.CreateTemp("", "tender-put-*")
	if err != nil {
		return nil, 0, err
	}
	os.Remove(f.Name())
	total, err := io.Copy(f, io.MultiReader(&head, src))
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, total, nil
}

func (bc *becomeConn) user() string {
	if bc.b.User == "" {
		return "root"
	}
	return bc.b.User
}

// firstLine is the first line of a failed command's stderr, or its exit
// status when it printed nothing.
func firstLine(stderr []byte, code int) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(stderr), []byte("\n"))
	if len(line) == 0 {
		return fmt.Sprintf("exit status %d", code)
	}
	return string(line)
}
