package ssh

import (
	"bytes"
	"io"
	"runtime"
	"testing"
)

// writeRecorder records the size of each write; like a channel, it has
// no ReadFrom.
type writeRecorder struct {
	buf   bytes.Buffer
	sizes []int
}

func (w *writeRecorder) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.buf.Write(p)
}

func (w *writeRecorder) Close() error { return nil }

// TestChunkedWrites: a frame written to the shell, and a stdin copied to
// an exec channel (io.Copy, which would use a bytes.Reader's WriteTo),
// reach the channel whole and in order, in writes of at most writeChunk.
func TestChunkedWrites(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 5000) // 80,000 bytes
	check := func(what string, w *writeRecorder) {
		t.Helper()
		if !bytes.Equal(w.buf.Bytes(), data) {
			t.Fatalf("%s: %d bytes arrived, not the %d written", what, w.buf.Len(), len(data))
		}
		for _, n := range w.sizes {
			if n > writeChunk {
				t.Fatalf("%s: a write of %d bytes (at most %d)", what, n, writeChunk)
			}
		}
		if len(w.sizes) < len(data)/writeChunk {
			t.Fatalf("%s: %d writes", what, len(w.sizes))
		}
	}
	var w writeRecorder
	if n, err := (chunkedWriter{&w}).Write(data); n != len(data) || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	check("chunkedWriter", &w)
	var r writeRecorder
	if _, err := io.Copy(&r, chunkedReader{bytes.NewReader(data)}); err != nil {
		t.Fatal(err)
	}
	check("chunkedReader", &r)
}

// readRecorder records the size of each read it is asked for and fails
// at its end with err (io.EOF for a normal end).
type readRecorder struct {
	r     io.Reader
	asked []int
	err   error
}

func (r *readRecorder) Read(p []byte) (int, error) {
	r.asked = append(r.asked, len(p))
	n, err := r.r.Read(p)
	if err == io.EOF {
		err = r.err
	}
	return n, err
}

// TestSmallDiscard: io.Copy into smallDiscard (as the SSH library drains
// a session's stderr) reads everything in reads of 512 bytes, not
// io.Discard's 8 KiB, and passes an error on.
func TestSmallDiscard(t *testing.T) {
	r := &readRecorder{r: bytes.NewReader(make([]byte, 100_000)), err: io.EOF}
	n, err := io.Copy(smallDiscard{}, r)
	if n != 100_000 || err != nil {
		t.Fatalf("copied %d, %v; want 100000, nil", n, err)
	}
	for _, a := range r.asked {
		if a != 512 {
			t.Fatalf("asked for %d bytes, want 512 each time", a)
		}
	}
	bad := &readRecorder{r: bytes.NewReader(make([]byte, 1000)), err: io.ErrUnexpectedEOF}
	if n, err := io.Copy(smallDiscard{}, bad); n != 1000 || err != io.ErrUnexpectedEOF {
		t.Fatalf("copied %d, %v; want 1000, unexpected EOF", n, err)
	}
}

// failWriter fails every write after the first n bytes.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, io.ErrClosedPipe
	}
	w.n -= len(p)
	return len(p), nil
}

// TestSmallCopies: what the SSH library copies between a channel and an
// exec's stdin, stdout and stderr (io.Copy) goes through chunkedReader's
// WriteTo and smallReads' ReadFrom: whole, in order, in reads of at most
// writeChunk (io.Copy's own buffer would ask for 32 KiB), and the first
// read or write error ends the copy.
func TestSmallCopies(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 5000)
	small := func(what string, asked []int) {
		t.Helper()
		if len(asked) == 0 {
			t.Fatalf("%s: never read", what)
		}
		for _, a := range asked {
			if a > writeChunk {
				t.Fatalf("%s: asked for %d bytes (at most %d)", what, a, writeChunk)
			}
		}
	}
	in := &readRecorder{r: bytes.NewReader(data), err: io.EOF}
	var got writeRecorder
	if n, err := io.Copy(&got, chunkedReader{in}); n != int64(len(data)) || err != nil || !bytes.Equal(got.buf.Bytes(), data) {
		t.Fatalf("stdin: copied %d, %v", n, err)
	}
	small("stdin", in.asked)
	out := &readRecorder{r: bytes.NewReader(data), err: io.EOF}
	var sink bytes.Buffer
	if n, err := io.Copy(smallReads{&sink}, out); n != int64(len(data)) || err != nil || !bytes.Equal(sink.Bytes(), data) {
		t.Fatalf("stdout: copied %d, %v", n, err)
	}
	small("stdout", out.asked)
	bad := &readRecorder{r: bytes.NewReader(data[:3000]), err: io.ErrUnexpectedEOF}
	if n, err := io.Copy(smallReads{io.Discard}, bad); n != 3000 || err != io.ErrUnexpectedEOF {
		t.Fatalf("a failed read: copied %d, %v", n, err)
	}
	if n, err := io.Copy(smallReads{&failWriter{n: 100}}, bytes.NewReader(data)); n != 100 || err != io.ErrClosedPipe {
		t.Fatalf("a failed write: copied %d, %v", n, err)
	}
	short := writerFunc(func(p []byte) (int, error) { return len(p) - 1, nil })
	if _, err := io.Copy(smallReads{short}, bytes.NewReader(data)); err != io.ErrShortWrite {
		t.Fatalf("a short write: %v, want io.ErrShortWrite", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// plainReader hides a reader's WriteTo, as an SSH channel has none.
type plainReader struct{ r io.Reader }

func (p *plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

// TestSmallCopiesAllocate: the copies the SSH library makes of an exec's
// streams allocate a small buffer, not io.Copy's 32 KiB: stdin through
// chunkedReader's WriteTo, stdout and stderr through smallReads'
// ReadFrom (bytes allocated, averaged over 20 copies each).
func TestSmallCopiesAllocate(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 5000)
	sink := writerFunc(func(p []byte) (int, error) { return len(p), nil })
	perCopy := func(copy func()) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range 20 {
			copy()
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 20
	}
	const most = 8 << 10
	if n := perCopy(func() { io.Copy(sink, chunkedReader{bytes.NewReader(data)}) }); n > most {
		t.Errorf("stdin's copy allocated %d bytes (at most %d)", n, most)
	}
	if n := perCopy(func() { io.Copy(smallReads{sink}, &plainReader{bytes.NewReader(data)}) }); n > most {
		t.Errorf("stdout's copy allocated %d bytes (at most %d)", n, most)
	}
}
