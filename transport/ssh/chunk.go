package ssh

import "io"

// writeChunk bounds what one write to an SSH channel carries. For each
// channel, golang.org/x/crypto/ssh keeps a packet buffer as large as the
// largest write the channel carried (up to the peer's maximum packet,
// 32 KiB for OpenSSH), and for each connection an encryption buffer as
// large as the largest packet: a frame of 20 KiB written at once would
// pin 40 KiB per host for the connection's life. Written in pieces of
// at most writeChunk, a large frame costs a few more packets (one
// encryption and one write each) and a host in flight holds less: most
// frames (a task's values and call) are under 2 KiB, and the few larger
// ones (a module's functions, sent once per connection; content sent in
// band, up to inBandLimit) are a few packets more. 8 KiB pieces held
// about 7 MB more at 200 hosts in flight than 2 KiB pieces.
const writeChunk = 2 << 10

// chunkedWriter writes to a channel in pieces of at most writeChunk.
type chunkedWriter struct{ io.WriteCloser }

func (w chunkedWriter) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		k := min(len(p), writeChunk)
		m, err := w.WriteCloser.Write(p[:k])
		n += m
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

// chunkedReader reads at most writeChunk bytes at a time, for a stdin
// the SSH library copies to a channel: it hides the reader's WriteTo,
// which would hand the channel everything in one write, and gives its
// own, which copies through a writeChunk buffer (io.Copy would take 32
// KiB for the copy).
type chunkedReader struct{ r io.Reader }

func (r chunkedReader) Read(p []byte) (int, error) {
	if len(p) > writeChunk {
		p = p[:writeChunk]
	}
	return r.r.Read(p)
}

// WriteTo copies r's reader to w, writeChunk bytes at a time.
func (r chunkedReader) WriteTo(w io.Writer) (int64, error) { return copySmall(w, r.r, writeChunk) }

// smallReads is a session's stdout or stderr writer that takes what the
// SSH library copies to it through a small buffer. Given a writer with
// no ReadFrom, the library's io.Copy allocates 32 KiB for each stream of
// a command, held while the command runs: 64 KiB per host in flight for
// an exec whose answer is a few lines, as an agent check's probe is.
type smallReads struct{ w io.Writer }

func (s smallReads) Write(p []byte) (int, error) { return s.w.Write(p) }

// ReadFrom copies r to the writer, writeChunk bytes at a time.
func (s smallReads) ReadFrom(r io.Reader) (int64, error) { return copySmall(s.w, r, writeChunk) }

// smallDiscard drops what it is given, as io.Discard does, but reads it
// through a small buffer: given io.Discard (or nothing), the SSH library
// drains a session's stderr with an 8 KiB buffer held for as long as the
// session lives (the SFTP subsystem's: the connection's life).
type smallDiscard struct{}

func (smallDiscard) Write(p []byte) (int, error) { return len(p), nil }

// ReadFrom reads r to its end, 512 bytes at a time.
func (smallDiscard) ReadFrom(r io.Reader) (int64, error) { return copySmall(io.Discard, r, 512) }

// copySmall is io.Copy through a buffer of size bytes, whatever dst and
// src implement: it returns at src's end (a nil error) or at the first
// error.
func copySmall(dst io.Writer, src io.Reader, size int) (int64, error) {
	buf := make([]byte, size)
	var n int64
	for {
		m, rerr := src.Read(buf)
		if m > 0 {
			w, werr := dst.Write(buf[:m])
			n += int64(w)
			if werr != nil {
				return n, werr
			}
			if w != m {
				return n, io.ErrShortWrite
			}
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}
