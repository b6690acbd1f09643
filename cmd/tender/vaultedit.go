package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/internal/shlex"
	"github.com/tender-sh/tender/vault"
)

// vaultEditCommands are `tender vault create` and `tender vault edit`, as
// ansible-vault's: the plaintext is edited with $EDITOR (default vi) in a
// 0600 file in a private temporary directory, which is removed afterwards
// whatever happens.
func vaultEditCommands() []*cli.Command {
	enc := &cli.StringFlag{Name: "encrypt-vault-id", Usage: "the vault `ID` to encrypt with (default: the first secret)"}
	return []*cli.Command{
		{Name: "create", Usage: "create a new encrypted file with $EDITOR", ArgsUsage: "FILE", Flags: append(vaultFlags(), enc), Action: vaultCreate},
		{Name: "edit", Usage: "edit encrypted files with $EDITOR, re-encrypted with the same secret and vault id", ArgsUsage: "FILE...", Flags: vaultFlags(), Action: vaultEdit},
	}
}

func vaultCreate(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageError(c, "create takes one FILE")
	}
	f := c.Args().First()
	if d := filepath.Dir(f); d != "" {
		if _, err := os.Stat(d); errors.Is(err, os.ErrNotExist) {
			printWarning(c.App.ErrWriter, fmt.Sprintf("%s does not exist, creating...", d))
			if err := os.MkdirAll(d, 0o700); err != nil {
				return err
			}
		}
	}
	if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
		return fmt.Errorf("%s exists, please use 'edit' instead", f)
	}
	keys, err := vaultCLIKeys(c, true)
	if err != nil {
		return err
	}
	if _, err := keys.Encrypt([]byte("x"), c.String("encrypt-vault-id")); err != nil {
		return err // no such vault id: fail before the editor opens
	}
	plain, _, err := editTemp(f, nil)
	if err != nil {
		return err
	}
	data, err := keys.Encrypt(plain, c.String("encrypt-vault-id"))
	if err != nil {
		return err
	}
	return writeOutput(c, f, "", data)
}

func vaultEdit(c *cli.Context) error {
	if c.NArg() == 0 {
		return usageError(c, "give a FILE")
	}
	keys, err := vaultCLIKeys(c, false)
	if err != nil {
		return err
	}
	for _, name := range c.Args().Slice() {
		f, err := filepath.EvalSymlinks(name)
		if err != nil {
			return err
		}
		vaulted, err := vault.ReadFile(f)
		if err != nil {
			return err
		}
		old, err := keys.Decrypt(vaulted, f)
		if err != nil {
			return fmt.Errorf("%w for %s", err, f)
		}
		plain, changed, err := editTemp(f, old)
		if err != nil {
			return err
		}
		if !changed {
			continue // as ansible-vault: an unchanged file is not rewritten
		}
		data, err := keys.Reencrypt(vaulted, plain, f)
		if err == nil {
			err = writeOutput(c, f, "", data)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// editTemp writes content to a 0600 file in a new private directory,
// named with file's extension, runs the editor on it and returns what
// it holds afterwards and whether that differs from content. The
// directory is removed before it returns. While the editor runs, Ctrl-C
// is the editor's (tender ignores SIGINT); a SIGTERM or SIGHUP is passed
// on to the editor and the edit is abandoned.
func editTemp(file string, content []byte) ([]byte, bool, error) {
	dir, err := os.MkdirTemp("", "tender-vault-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "edit"+filepath.Ext(file))
	if err := os.WriteFile(tmp, content, 0o600); err != nil {
		return nil, false, err
	}
	editor := os.Getenv("EDITOR")
	if editor == "" {
		editor = "vi"
	}
	argv, err := shlex.Split(editor)
	if err != nil || len(argv) == 0 {
		return nil, false, fmt.Errorf("EDITOR=%q: cannot split it into a command: %v", editor, err)
	}
	cmd := exec.Command(argv[0], append(argv[1:], tmp)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("Unable to execute the command %q: %w", strings.Join(cmd.Args, " "), err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var abandoned os.Signal
	for waiting := true; waiting; {
		select {
		case s := <-sigs:
			if s != os.Interrupt {
				abandoned = s
				_ = cmd.Process.Signal(s)
			}
		case <-done:
			waiting = false
		}
	}
	if abandoned != nil {
		return nil, false, &exitError{code: 1, err: fmt.Errorf("%v: the edit of %s was abandoned, the file is unchanged", abandoned, file)}
	}
	// As ansible-vault, the editor's exit status does not matter: what
	// the file holds does.
	edited, err := os.ReadFile(tmp)
	if err != nil {
		return nil, false, err
	}
	return edited, content == nil || !bytes.Equal(edited, content), nil
}
