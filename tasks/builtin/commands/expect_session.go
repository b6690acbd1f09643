package commands

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tender-sh/tender/transport"
)

// expectSession is one run of expectScript: it reads the verdict lines,
// then the terminal's output as it arrives, matches it against the
// events and writes their answers back, as pexpect.run does.
type expectSession struct {
	events  []*expectEvent
	timeout *time.Duration // nil: none

	prefix   string // the verdict lines and blobs before expectMark
	output   []byte // what the terminal printed, up to a timeout
	timedOut bool   // no pattern matched within timeout
	failMsg  string // why the run stopped early (no answer left)
	tooLarge bool   // the output passed transport.DefaultMaxOutput
}

// expectChunk carries one write of the script's stdout.
type expectChunk []byte

// chanWriter hands each write to a channel, copied.
type chanWriter chan<- expectChunk

func (w chanWriter) Write(p []byte) (int, error) {
	w <- append(expectChunk(nil), p...)
	return len(p), nil
}

// run streams script on conn and answers it. start and end are when the
// terminal's phase began and when the script was done (Ansible's start
// and end, around pexpect.run).
func (s *expectSession) run(ctx context.Context, conn transport.Conn, script string) (res transport.Result, start, end time.Time, err error) {
	inR, inW := io.Pipe()
	chunks := make(chan expectChunk, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err = transport.Stream(ctx, conn, transport.Cmd{Script: script, Stdin: inR}, chanWriter(chunks))
		end = time.Now()
		close(chunks)
		// Answers written after the end fail instead of waiting for a
		// reader that is gone.
		inR.Close()
	}()
	r := &expectPass{s: s, in: inW}
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				<-done
				inW.Close()
				s.prefix = r.head.String()
				if r.t != nil {
					r.t.Stop()
				}
				start = r.start
				if start.IsZero() {
					start = end
				}
				if err == nil && s.tooLarge {
					err = transport.ErrOutputTooLarge
				}
				return res, start, end, err
			}
			r.take(c)
		case <-r.timer:
			s.timedOut = true
			r.stop()
		}
	}
}

// expectPass is the controller's side of a session while it runs: the
// verdict head read so far, the output since the last match, and the
// timeout's timer.
type expectPass struct {
	s       *expectSession
	in      *io.PipeWriter // the script's stdin, where answers go
	head    bytes.Buffer   // what came before expectMark
	buf     []byte         // output since the last match
	started bool           // expectMark seen: the terminal's phase began
	stopped bool           // the kill line was sent
	start   time.Time      // when the terminal's phase began
	timer   <-chan time.Time
	t       *time.Timer
}

// send writes a line for the script's reader.
func (r *expectPass) send(line string) { _, _ = io.WriteString(r.in, line+"\n") }

// answer sends an answer: "d" and every byte as a printf %b octal
// escape, so no byte of it is ever taken for shell syntax.
func (r *expectPass) answer(a string) {
	var b strings.Builder
	b.WriteByte('d')
	for i := 0; i < len(a); i++ {
		fmt.Fprintf(&b, `\0%03o`, a[i])
	}
	r.send(b.String())
}

// arm (re)starts the timeout, when there is one.
func (r *expectPass) arm() {
	if r.s.timeout == nil {
		return
	}
	if r.t != nil {
		r.t.Stop()
	}
	r.t = time.NewTimer(*r.s.timeout)
	r.timer = r.t.C
}

// stop sends the kill line; later output is ignored.
func (r *expectPass) stop() {
	r.stopped, r.timer = true, nil
	r.send("k")
}

// take handles one write of the script's stdout: the verdict head until
// expectMark, the terminal's output after it.
func (r *expectPass) take(c expectChunk) {
	if r.stopped {
		return
	}
	if r.started {
		r.feed(c)
		return
	}
	r.head.Write(c)
	i := bytes.Index(r.head.Bytes(), []byte(expectMark))
	if i < 0 {
		if r.head.Len() > transport.DefaultMaxOutput {
			r.s.tooLarge = true
			r.stop()
		}
		return
	}
	rest := append([]byte(nil), r.head.Bytes()[i+len(expectMark):]...)
	r.head.Truncate(i)
	r.started, r.start = true, time.Now()
	r.arm()
	if len(rest) > 0 {
		r.feed(rest)
	}
}

// feed adds terminal output and answers every event it now matches, in
// order, until none matches or the run stops (no answer left, or the
// output grew past transport.DefaultMaxOutput).
func (r *expectPass) feed(p []byte) {
	s := r.s
	if len(s.output)+len(p) > transport.DefaultMaxOutput {
		// As a Run's output: bounded, the command ended.
		s.tooLarge = true
		r.stop()
		return
	}
	s.output = append(s.output, p...)
	r.buf = append(r.buf, p...)
	for !r.stopped {
		e, endAt, err := s.search(r.buf)
		if err != nil {
			s.failMsg = err.Error()
			r.stop()
			return
		}
		if e == nil {
			return
		}
		matched := r.buf[:endAt]
		r.buf = r.buf[endAt:]
		if e.list && e.next >= len(e.answers) {
			s.failMsg = fmt.Sprintf("No remaining responses for '%s', output was '%s'", e.key, pyBytesRepr(matched))
			r.stop()
			return
		}
		a := e.answers[min(e.next, len(e.answers)-1)]
		if e.list {
			e.next++
		}
		r.answer(a)
		r.arm()
	}
}

// search finds the earliest match of any event's pattern in buf (the
// first event's, in order, at equal positions), as pexpect's searcher
// does. Its error is a search's past its bounds.
func (s *expectSession) search(buf []byte) (e *expectEvent, end int, err error) {
	best := -1
	for _, ev := range s.events {
		loc, err := ev.re.SearchBytes(buf)
		if err != nil {
			return nil, 0, err
		}
		if loc != nil && (best < 0 || loc[0] < best) {
			best, e, end = loc[0], ev, loc[1]
		}
	}
	return e, end, nil
}
