package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Prompt asks the user for the password of vault id id, without echo. The
// CLI provides it; a library user may leave it nil.
type Prompt func(id string) ([]byte, error)

// SplitID splits a --vault-id value "[id@]source" into its vault id ("" when
// none is given) and source.
func SplitID(value string) (id, source string) {
	if i := strings.Index(value, "@"); i >= 0 {
		return value[:i], value[i+1:]
	}
	return "", value
}

// AddSource adds the secret of vault id id read from source: "prompt"
// asks prompt; an executable file is a password script whose standard
// output is the password (a script whose name, less its extension, ends
// in "-client" is run with "--vault-id <id>"); any other file holds the
// password, surrounding white space stripped.
func (k *Keyring) AddSource(ctx context.Context, id, source string, prompt Prompt) error {
	if id == "" {
		id = DefaultID
	}
	if source == "prompt" || source == "prompt_ask_vault_pass" {
		if prompt == nil {
			return fmt.Errorf("vault id %s asks for a password prompt, but there is no terminal to prompt on", id)
		}
		pw, err := prompt(id)
		if err != nil {
			return err
		}
		pw = bytes.TrimSpace(pw)
		if len(pw) == 0 {
			return errors.New("Invalid vault password was provided from prompt")
		}
		return k.Add(id, pw)
	}
	pw, err := ReadPassword(ctx, source, id)
	if err != nil {
		return err
	}
	return k.Add(id, pw)
}

// ReadPassword reads a password from a password file or script, as
// AddSource describes; id is what a client script is given.
func ReadPassword(ctx context.Context, path, id string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("The vault password file %s was not found", path)
		}
		return nil, fmt.Errorf("Could not read vault password file %s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("The vault password file provided '%s' can not be a directory", path)
	}
	if fi.Mode().Perm()&0o111 != 0 {
		return runScript(ctx, path, id)
	}
	data, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	pw := bytes.TrimSpace(data)
	if len(pw) == 0 {
		return nil, fmt.Errorf("Invalid vault password was provided from file (%s)", path)
	}
	return pw, nil
}

// MaxPassword bounds a vault password as read from a file or a script's
// output: a password file that is a device (/dev/zero) or a script that
// never stops printing is refused, not read until memory runs out.
const MaxPassword = 1 << 20

// readLimited reads a password file of at most MaxPassword bytes.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("Could not read vault password file %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxPassword+1))
	if err != nil {
		return nil, fmt.Errorf("Could not read vault password file %s: %w", path, err)
	}
	if len(data) > MaxPassword {
		return nil, fmt.Errorf("The vault password file %s is larger than %s", path, sizeString(MaxPassword))
	}
	return data, nil
}

// IsClientScript reports whether a password script is a client script,
// one that is told which vault id to give the password of.
func IsClientScript(path string) bool {
	base := filepath.Base(path)
	return strings.HasSuffix(strings.TrimSuffix(base, filepath.Ext(base)), "-client")
}

func runScript(ctx context.Context, path, id string) ([]byte, error) {
	var args []string
	client := IsClientScript(path)
	if client && id != "" {
		args = []string{"--vault-id", id}
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var stdout, stderr bytes.Buffer
	out := &capped{buf: &stdout, limit: MaxPassword}
	cmd.Stdout = out
	// The script may prompt on the terminal: its stderr and stdin are the user's.
	cmd.Stderr = &teeTail{w: os.Stderr, tail: &stderr}
	cmd.Stdin = os.Stdin
	err := cmd.Run()
	if out.over {
		// The script, its output cut, may have died of it: the size is
		// the error.
		return nil, fmt.Errorf("Vault password script %s printed more than %s", path, sizeString(MaxPassword))
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, fmt.Errorf("Problem running vault password script %s (%v). If this is not a script, remove the executable bit from the file.", path, err)
		}
		if client && ee.ExitCode() == 2 {
			return nil, fmt.Errorf("Vault password client script %s did not find a secret for vault-id=%s: %s", path, id, strings.TrimSpace(stderr.String()))
		}
		return nil, fmt.Errorf("Vault password script %s returned non-zero (%d): %s", path, ee.ExitCode(), strings.TrimSpace(stderr.String()))
	}
	pw := bytes.Trim(stdout.Bytes(), "\r\n")
	if len(pw) == 0 {
		return nil, fmt.Errorf("Invalid vault password was provided from script (%s)", path)
	}
	return pw, nil
}

// capped keeps what is written in buf, up to limit bytes; past it, over
// is set and every write fails, which ends the copy from the script (its
// output pipe is closed).
type capped struct {
	buf   *bytes.Buffer
	limit int
	over  bool
}

func (c *capped) Write(p []byte) (int, error) {
	if c.over || c.buf.Len()+len(p) > c.limit {
		c.over = true
		return 0, errors.New("output over the limit")
	}
	return c.buf.Write(p)
}

// teeTail writes through to w and keeps the last 4 KiB in tail.
type teeTail struct {
	w    *os.File
	tail *bytes.Buffer
}

func (t *teeTail) Write(p []byte) (int, error) {
	t.tail.Write(p)
	if t.tail.Len() > 4096 {
		t.tail.Next(t.tail.Len() - 4096)
	}
	return t.w.Write(p)
}
