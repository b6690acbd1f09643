package ssh

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tender-sh/tender/transport"
)

// recoverShell brings sh back in step after its Run was abandoned: it
// terminates the script's processes and waits for the frame's answer,
// killing harder and at last discarding the shell when none comes.
func (c *Conn) recoverShell(sh *shell, done chan shellAnswer) {
	go c.killChildren(sh.pid, "TERM", false)
	hard := time.NewTimer(3 * time.Second)
	defer hard.Stop()
	give := time.NewTimer(recoverTimeout)
	defer give.Stop()
	for {
		select {
		case a := <-done:
			if a.err == nil && !c.closed.Load() {
				c.idle <- sh
				return
			}
			c.discard(sh)
			return
		case <-hard.C:
			go c.killChildren(sh.pid, "KILL", false)
		case <-give.C:
			c.discard(sh)
			return
		case <-c.dead:
			c.discard(sh)
			return
		}
	}
}

// discard closes sh and frees its slot; the next Run starts a new shell.
func (c *Conn) discard(sh *shell) {
	sh.sess.Close()
	c.release()
	c.mu.Lock()
	c.state = shellNone
	c.mu.Unlock()
}

// exchange writes one frame and reads its answer.
func (sh *shell) exchange(frame []byte, b string, limit int) (transport.Result, error) {
	if _, err := sh.stdin.Write(frame); err != nil {
		return transport.Result{}, err
	}
	res, _, err := sh.answer(b, limit)
	return res, err
}

// answer reads the answer of the frame with boundary b; skipped says
// the frame did not run (a queued frame whose gate was closed, see
// RunAhead).
func (sh *shell) answer(b string, limit int) (res transport.Result, skipped bool, err error) {
	if _, err := readUntil(sh.out, []byte(b+"O"), limit); err != nil {
		return res, false, err
	}
	part, tag, err := readPart(sh.out, b, limit)
	if err != nil {
		return res, false, err
	}
	if tag == 'S' || tag == 'F' {
		line, err := sh.out.ReadString('\n')
		if err != nil {
			return res, false, err
		}
		if tag == 'S' {
			return res, true, nil
		}
		return res, false, &outputError{dir: strings.TrimSpace(line)}
	}
	res.Stdout = part
	if tag == 'E' {
		if res.Stderr, tag, err = readPart(sh.out, b, limit); err != nil {
			return res, false, err
		}
	}
	if tag != 'X' {
		return res, false, fmt.Errorf("persistent shell: unexpected answer marker %q", tag)
	}
	line, err := sh.out.ReadString('\n')
	if err != nil {
		return res, false, err
	}
	if res.ExitCode, err = strconv.Atoi(strings.TrimSpace(line)); err != nil {
		return res, false, fmt.Errorf("persistent shell: bad exit status %q", line)
	}
	return res, false, nil
}

// readPart reads up to the next boundary and the tag byte after it.
func readPart(r *bufio.Reader, b string, limit int) ([]byte, byte, error) {
	part, err := readUntil(r, []byte(b), limit)
	if err != nil {
		return nil, 0, err
	}
	tag, err := r.ReadByte()
	return part, tag, err
}

// outputError means the remote shell could not write a Run's output to
// its temporary directory: the script's outcome is unknown, but the shell
// itself is still in step.
type outputError struct{ dir string }

func (e *outputError) Error() string {
	return "the host could not write the script's output under " + e.dir + " (is its temporary directory full or gone?)"
}
