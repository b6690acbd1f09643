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
// which would hand the channel everything in one write.
type chunkedReader struct{ r io.Reader }

func (r chunkedReader) Read(p []byte) (int, error) {
	if len(p) > writeChunk {
		p = p[:writeChunk]
	}
	return r.r.Read(p)
}

// smallDiscard drops what it is given, as io.Discard does, but reads it
// through a small buffer on its own stack: given io.Discard (or nothing),
// the SSH library drains a session's stderr with an 8 KiB buffer held for
// as long as the session lives (the SFTP subsystem's: the connection's
// life).
type smallDiscard struct{}

func (smallDiscard) Write(p []byte) (int, error) { return len(p), nil }

// ReadFrom reads r to its end, 512 bytes at a time.
func (smallDiscard) ReadFrom(r io.Reader) (int64, error) {
	var buf [512]byte
	var n int64
	for {
		m, err := r.Read(buf[:])
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
