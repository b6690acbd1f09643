package commands

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tender-sh/tender/provision/transport"
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
	// send writes an answer (or the kill line) for the script's reader:
	// "d" and every byte as a printf %b octal escape, so no byte of it
	// is ever taken for shell syntax.
	send := func(line string) { _, _ = io.WriteString(inW, line+"\n") }
	answer := func(a string) {
		var b strings.Builder
		b.WriteByte('d')
		for i := 0; i < len(a); i++ {
			fmt.Fprintf(&b, `\0%03o`, a[i])
		}
		send(b.String())
	}
	var (
		head    bytes.Buffer
		buf     []byte // output since the last match
		started bool
		stopped bool
		timer   <-chan time.Time
		t       *time.Timer
	)
	arm := func() {
		if s.timeout == nil {
			return
		}
		if t != nil {
			t.Stop()
		}
		t = time.NewTimer(*s.timeout)
		timer = t.C
	}
	stop := func() {
		stopped, timer = true, nil
		send("k")
	}
	feed := func(p []byte) {
		if len(s.output)+len(p) > transport.DefaultMaxOutput {
			// As a Run's output: bounded, the command ended.
			s.tooLarge = true
			stop()
			return
		}
		s.output = append(s.output, p...)
		buf = append(buf, p...)
		for !stopped {
			e, endAt := s.search(buf)
			if e == nil {
				return
			}
			matched := buf[:endAt]
			buf = buf[endAt:]
			if e.list && e.next >= len(e.answers) {
				s.failMsg = fmt.Sprintf("No remaining responses for '%s', output was '%s'", e.key, pyBytesRepr(matched))
				stop()
				return
			}
			a := e.answers[min(e.next, len(e.answers)-1)]
			if e.list {
				e.next++
			}
			answer(a)
			arm()
		}
	}
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				<-done
				inW.Close()
				s.prefix = head.String()
				if t != nil {
					t.Stop()
				}
				if start.IsZero() {
					start = end
				}
				if err == nil && s.tooLarge {
					err = transport.ErrOutputTooLarge
				}
				return res, start, end, err
			}
			if stopped {
				continue
			}
			if !started {
				head.Write(c)
				i := bytes.Index(head.Bytes(), []byte(expectMark))
				if i < 0 {
					if head.Len() > transport.DefaultMaxOutput {
						s.tooLarge = true
						stop()
					}
					continue
				}
				rest := append([]byte(nil), head.Bytes()[i+len(expectMark):]...)
				head.Truncate(i)
				started, start = true, time.Now()
				arm()
				if len(rest) > 0 {
					feed(rest)
				}
				continue
			}
			feed(c)
		case <-timer:
			s.timedOut = true
			stop()
		}
	}
}

// search finds the earliest match of any event's pattern in buf (the
// first event's, in order, at equal positions), as pexpect's searcher
// does.
func (s *expectSession) search(buf []byte) (e *expectEvent, end int) {
	best := -1
	for _, ev := range s.events {
		loc := ev.re.FindIndex(buf)
		if loc != nil && (best < 0 || loc[0] < best) {
			best, e, end = loc[0], ev, loc[1]
		}
	}
	return e, end
}
