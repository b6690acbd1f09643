package vault

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxSize is the largest vault text tender reads, in bytes: a
// vault-encrypted file or a !vault value, header and line breaks
// included. Larger vault data is refused with an error wrapping
// ErrTooLarge; a vault-encrypted file of known size before a byte of its
// body is read. The default, 64 MiB of vault text, holds 16 MiB of
// plaintext (vault text is about four times its plaintext); decrypting
// it holds at most the text and a quarter of it more. A program that
// embeds tender may change it before it loads or runs anything; it is
// read without synchronisation.
var MaxSize int64 = 64 << 20

// ErrTooLarge is wrapped by the error of vault data larger than MaxSize.
var ErrTooLarge = errors.New("vault data too large")

// tooLarge is the error of vault data over limit.
func tooLarge(limit int64) error {
	return fmt.Errorf("%w: over the limit of %s for vault-encrypted data (vault.MaxSize)", ErrTooLarge, sizeString(limit))
}

// sizeString shows a byte count as "64 MiB" when it is a whole number
// of MiB or KiB, as "1000 bytes" otherwise.
func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// chunk is how much of a vault-encrypted file is read and checked at a
// time: malformed data is refused after at most this much past its
// first bad byte.
const chunk = 64 << 10

// ReadFile reads a controller file that may be vault-encrypted (a vars
// file, an inventory, a template, a copy source), as os.ReadFile does: a
// file that does not start with the vault header is returned whole. A
// vault-encrypted one is bounded: one larger than MaxSize is refused
// before its body is read, and its text is checked as it is read, a
// chunk at a time, so that a malformed one (a bad header, a byte that is
// not hex, a body that is not a salt, an HMAC and a ciphertext) is
// refused at once, without reading the rest. Errors name the file.
func ReadFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSized(f, name)
}

// ReadFS is ReadFile for a file of fsys (an embedded or unpacked agent
// bundle).
func ReadFS(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSized(f, name)
}

// ReadOpen is ReadFile for a file already open (through a sandbox); name
// is what errors call it.
func ReadOpen(f fs.File, name string) ([]byte, error) { return readSized(f, name) }

// Read is ReadFile for a stream of unknown size (standard input): vault
// data is refused once more than MaxSize bytes of it are read. name is
// what errors call it.
func Read(r io.Reader, name string) ([]byte, error) {
	return readVault(r, -1, name)
}

// readSized reads an open file, its size known when it is a regular one.
func readSized(f fs.File, name string) ([]byte, error) {
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return readVault(f, size, name)
}

// readVault reads r, of size bytes (-1: unknown), as ReadFile describes.
func readVault(r io.Reader, size int64, name string) ([]byte, error) {
	prefix := []byte(Header + ";")
	head := make([]byte, len(prefix))
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if !bytes.Equal(head, prefix) {
		buf := bytes.NewBuffer(make([]byte, 0, max(size, 0)+512))
		buf.Write(head)
		if _, err := buf.ReadFrom(r); err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		return buf.Bytes(), nil
	}
	limit := MaxSize
	if size > limit {
		return nil, fmt.Errorf("%s: %w: the file is %d bytes, over the limit of %s for vault-encrypted data (vault.MaxSize)", name, ErrTooLarge, size, sizeString(limit))
	}
	s := newScanner(limit, false, 0)
	buf := make([]byte, 0, max(min(size, limit), int64(len(prefix)))+1)
	buf = append(buf, head...)
	s.Write(head)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), len(buf)+chunk)])
		if n > 0 {
			if _, serr := s.Write(buf[len(buf) : len(buf)+n]); serr != nil {
				return nil, formatError(name, serr)
			}
			buf = buf[:len(buf)+n]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
	}
	if err := s.finish(); err != nil {
		return nil, formatError(name, err)
	}
	return buf, nil
}

// formatError names the file in a scan's error, as Decrypt's errors do.
func formatError(name string, err error) error {
	if errors.Is(err, ErrTooLarge) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return fmt.Errorf("There was a vault format error in %s: %w", name, err)
}
