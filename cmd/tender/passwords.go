package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/tender-sh/tender/config"
)

// loginPasswords are the SSH login password and the become password as
// ansible-playbook gets them: from --connection-password-file and
// --become-password-file, else asked for (-k and -K, or DEFAULT_ASK_PASS
// and DEFAULT_BECOME_ASK_PASS) with its prompts; a become password left
// empty after -k takes the SSH one. Neither is ever printed.
func loginPasswords(c *cli.Context, cfg *config.Config) (ssh, become string, err error) {
	askPass, askBecome := c.Bool("ask-pass"), c.Bool("ask-become-pass")
	if !askPass {
		if askPass, err = settingBool(cfg, "DEFAULT_ASK_PASS"); err != nil {
			return "", "", err
		}
	}
	if !askBecome {
		if askBecome, err = settingBool(cfg, "DEFAULT_BECOME_ASK_PASS"); err != nil {
			return "", "", err
		}
	}
	if f := c.String("connection-password-file"); f != "" {
		if ssh, err = passwordFile(c.Context, f); err != nil {
			return "", "", err
		}
		askPass = false
	}
	if f := c.String("become-password-file"); f != "" {
		if become, err = passwordFile(c.Context, f); err != nil {
			return "", "", err
		}
		askBecome = false
	}
	in := bufio.NewReader(os.Stdin)
	prompt := "BECOME password: "
	if askPass {
		if ssh, err = askPassword(c.App.ErrWriter, in, "SSH password: "); err != nil {
			return "", "", err
		}
		prompt = "BECOME password[defaults to SSH password]: "
	}
	if askBecome {
		if become, err = askPassword(c.App.ErrWriter, in, prompt); err != nil {
			return "", "", err
		}
		if askPass && become == "" {
			become = ssh
		}
	}
	return ssh, become, nil
}

// passwordFile reads a password from path: the file's content, or the
// output of the program it is when it is executable; "-" reads standard
// input. Surrounding newlines are dropped (and, from a file, blanks).
func passwordFile(ctx context.Context, path string) (string, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
		return strings.Trim(string(data), "\r\n"), err
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", &exitError{code: 1, err: fmt.Errorf("The password file %s was not found", path)}
	}
	if st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
		var stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, path)
		cmd.Stderr = &stderr
		if data, err = cmd.Output(); err != nil {
			return "", &exitError{code: 1, err: fmt.Errorf("The password script %s returned an error (%v): %s", path, err, strings.TrimSpace(stderr.String()))}
		}
	} else if data, err = os.ReadFile(path); err != nil {
		return "", &exitError{code: 1, err: fmt.Errorf("Could not read password file %s: %v", path, err)}
	} else {
		data = bytes.TrimSpace(data)
	}
	return strings.Trim(string(data), "\r\n"), nil
}

// askPassword shows prompt on w and reads a password: from the terminal
// without echo when standard input is one, else a line of standard input
// (as Python's getpass falls back to).
func askPassword(w io.Writer, in *bufio.Reader, prompt string) (string, error) {
	fmt.Fprint(w, prompt)
	fd := int(os.Stdin.Fd())
	if term.IsTerminal(fd) {
		// Ctrl-C while asking gives the terminal its echo back.
		st, err := term.GetState(fd)
		if err != nil {
			return "", err
		}
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sig)
		type answer struct {
			b   []byte
			err error
		}
		done := make(chan answer, 1)
		go func() {
			b, err := term.ReadPassword(fd)
			done <- answer{b, err}
		}()
		select {
		case a := <-done:
			fmt.Fprintln(w)
			return string(a.b), a.err
		case <-sig:
			term.Restore(fd, st)
			fmt.Fprintln(w)
			return "", &exitError{code: 99, err: errors.New("User interrupted execution")}
		}
	}
	if in == nil {
		in = bufio.NewReader(os.Stdin)
	}
	line, err := in.ReadString('\n')
	fmt.Fprintln(w)
	if err != nil && (err != io.EOF || line == "") {
		return "", fmt.Errorf("reading the password: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}
