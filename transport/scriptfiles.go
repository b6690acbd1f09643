package transport

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// RunFunc runs one script, as Conn.Run does.
type RunFunc func(ctx context.Context, cmd Cmd) (Result, error)

// PutByScript is Put for a connection that moves files only by running
// scripts (SSH without SFTP, docker exec): the data goes on a script's
// stdin into a temporary file beside dst (UploadPrefix and a random
// tail), whose size is checked before it gets its mode and is renamed
// over dst, so that an upload cut short never replaces dst. The same
// script removes stale upload files there (SweepUploads). name names the
// host in errors.
//
// The script must know the size first: a source that does not say it
// (a bytes or strings reader, a regular file) is copied into a temporary
// file on this machine, so that memory stays bounded whatever its size.
func PutByScript(ctx context.Context, run RunFunc, name, dst string, src io.Reader, mode fs.FileMode) error {
	size, body, cleanup, err := sized(ctx, src)
	if err != nil {
		return fmt.Errorf("%s: put %s: %w", name, dst, err)
	}
	defer cleanup()
	dir, _ := path.Split(dst)
	if dir == "" {
		dir = "./"
	}
	script := fmt.Sprintf(`%s
t=$(mktemp %s) || exit 1
if cat >"$t" && [ "$(wc -c <"$t")" -eq %d ] && chmod %o "$t" && mv -f -- "$t" %s; then exit 0; fi
rm -f -- "$t"
exit 1`, SweepUploads(Quote(dir)), Quote(dir+UploadPrefix+"XXXXXXXXXX"), size, mode.Perm(), Quote(dst))
	res, err := run(ctx, Cmd{Script: script, Stdin: ContextReader{ctx, body}})
	if err != nil {
		return fmt.Errorf("put %s: %w", dst, err)
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%s: put %s: %s", name, dst, strings.TrimSpace(string(res.Stderr)))
	}
	return nil
}

// sized returns src's size and a reader of exactly that many bytes,
// spooling src into a temporary file when its size is not known.
func sized(ctx context.Context, src io.Reader) (int64, io.Reader, func(), error) {
	nop := func() {}
	switch r := src.(type) {
	case interface{ Len() int }:
		return int64(r.Len()), src, nop, nil
	case *os.File:
		if st, err := r.Stat(); err == nil && st.Mode().IsRegular() {
			if off, err := r.Seek(0, io.SeekCurrent); err == nil {
				return st.Size() - off, io.LimitReader(r, st.Size()-off), nop, nil
			}
		}
	}
	f, err := os.CreateTemp("", "tender-put-*")
	if err != nil {
		return 0, nil, nop, err
	}
	cleanup := func() { f.Close(); os.Remove(f.Name()) }
	n, err := io.Copy(f, ContextReader{ctx, src})
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		cleanup()
		return 0, nil, nop, err
	}
	return n, io.LimitReader(f, n), cleanup, nil
}

// GetByScript is Get for a connection that moves files only by running
// scripts: cat on the host, its output bounded as every Run's is.
func GetByScript(ctx context.Context, run RunFunc, name, src string, dst io.Writer) error {
	q := Quote(src)
	res, err := run(ctx, Cmd{Script: "[ -e " + q + " ] || exit 66\nexec cat -- " + q})
	if err != nil {
		return fmt.Errorf("get %s: %w", src, err)
	}
	switch res.ExitCode {
	case 0:
	case 66:
		return fmt.Errorf("%s: get %s: %w", name, src, fs.ErrNotExist)
	default:
		return fmt.Errorf("%s: get %s: exit %s: %s", name, src, strconv.Itoa(res.ExitCode), strings.TrimSpace(string(res.Stderr)))
	}
	_, err = dst.Write(res.Stdout)
	return err
}

// ContextReader reads R until Ctx ends, so that a copy stops with it.
type ContextReader struct {
	Ctx context.Context
	R   io.Reader
}

// Read implements io.Reader.
func (r ContextReader) Read(p []byte) (int, error) {
	if err := r.Ctx.Err(); err != nil {
		return 0, err
	}
	return r.R.Read(p)
}

// ContextWriter writes to W until Ctx ends, so that a copy stops with it.
type ContextWriter struct {
	Ctx context.Context
	W   io.Writer
}

// Write implements io.Writer.
func (w ContextWriter) Write(p []byte) (int, error) {
	if err := w.Ctx.Err(); err != nil {
		return 0, err
	}
	return w.W.Write(p)
}
