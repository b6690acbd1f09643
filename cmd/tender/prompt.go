package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"
)

// terminalPrompt returns the Runner's Prompt when standard input is a
// terminal (nil otherwise, as ansible-playbook does not prompt then): the
// message goes to standard error, a private answer is read without echo,
// and Ctrl-C while waiting ends the run with the terminal restored.
func terminalPrompt() func(ctx context.Context, msg string, private bool) (string, error) {
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return nil
	}
	in := bufio.NewReader(os.Stdin)
	return func(ctx context.Context, msg string, private bool) (string, error) {
		fmt.Fprint(os.Stderr, msg)
		type answer struct {
			s   string
			err error
		}
		done := make(chan answer, 1)
		var restore func()
		if private {
			if st, err := term.GetState(fd); err == nil {
				restore = func() { term.Restore(fd, st) }
			}
			go func() {
				b, err := term.ReadPassword(fd)
				fmt.Fprintln(os.Stderr)
				done <- answer{string(b), err}
			}()
		} else {
			go func() {
				s, err := in.ReadString('\n')
				done <- answer{strings.TrimRight(s, "\r\n"), err}
			}()
		}
		select {
		case a := <-done:
			return a.s, a.err
		case <-ctx.Done():
			if restore != nil {
				restore()
			}
			fmt.Fprintln(os.Stderr)
			return "", ctx.Err()
		}
	}
}
