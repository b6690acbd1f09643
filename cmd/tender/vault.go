package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/vault"
)

// vaultCommand is `tender vault`, ansible-vault's encrypt, decrypt, view,
// rekey, encrypt_string, create and edit.
func vaultCommand() *cli.Command {
	enc := &cli.StringFlag{Name: "encrypt-vault-id", Usage: "the vault `ID` to encrypt with (default: the first secret)"}
	out := &cli.StringFlag{Name: "output", Usage: "write to `FILE` ('-' for standard output) instead of in place"}
	cmd := &cli.Command{
		Name:  "vault",
		Usage: "encrypt and decrypt Ansible Vault files and strings",
		Subcommands: append([]*cli.Command{
			{Name: "encrypt", Usage: "encrypt files in place", ArgsUsage: "FILE...", Flags: append(vaultFlags(), enc, out),
				Action: func(c *cli.Context) error { return vaultFiles(c, true) }},
			{Name: "decrypt", Usage: "decrypt files in place", ArgsUsage: "FILE...", Flags: append(vaultFlags(), out),
				Action: func(c *cli.Context) error { return vaultFiles(c, false) }},
			{Name: "view", Usage: "print decrypted files", ArgsUsage: "FILE...", Flags: vaultFlags(), Action: vaultView},
			{Name: "rekey", Usage: "re-encrypt files with a new secret", ArgsUsage: "FILE...", Flags: append(vaultFlags(),
				&cli.StringFlag{Name: "new-vault-id", Usage: "the vault `ID` of the new secret"},
				&cli.StringFlag{Name: "new-vault-password-file", Usage: "the new password `FILE` or script"}), Action: vaultRekey},
			{Name: "encrypt_string", Usage: "encrypt a string into a !vault YAML value", ArgsUsage: "STRING...", Flags: append(vaultFlags(), enc,
				&cli.StringSliceFlag{Name: "name", Aliases: []string{"n"}, Usage: "the variable `NAME` of each string"},
				&cli.StringFlag{Name: "stdin-name", Usage: "read the string from standard input, as variable `NAME`"},
				&cli.BoolFlag{Name: "prompt", Aliases: []string{"p"}, Usage: "ask for the string (and its variable name)"},
				&cli.BoolFlag{Name: "show-input", Usage: "with --prompt, show the string as it is typed"}), Action: vaultEncryptString},
		}, vaultEditCommands()...),
	}
	// -v, as ansible-vault's: it names the config file read.
	for _, sub := range cmd.Subcommands {
		sub.Flags = append(sub.Flags, &cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Count: new(int), Usage: "say more (the config file read)"})
	}
	return cmd
}

// vaultCLIKeys builds the keyring of a vault subcommand; one that needs a
// secret and was given none asks for the password on the terminal, as
// ansible-vault does.
func vaultCLIKeys(c *cli.Context, newPassword bool) (*vault.Keyring, error) {
	cfg, err := loadConfig(c)
	if err != nil {
		return nil, err
	}
	keys, err := vaultKeyring(c, cfg)
	if err != nil {
		return nil, err
	}
	if keys.Len() == 0 {
		msg, confirm := "Vault password: ", ""
		if newPassword {
			msg, confirm = "New Vault password: ", "Confirm New Vault password: "
		}
		if err := keys.AddSource(c.Context, "", "prompt", passwordPrompt(msg, confirm)); err != nil {
			return nil, &exitError{code: 1, err: err}
		}
	}
	return keys, nil
}

func vaultFiles(c *cli.Context, encrypt bool) error {
	if c.NArg() == 0 {
		return usageError(c, "give a FILE")
	}
	keys, err := vaultCLIKeys(c, encrypt)
	if err != nil {
		return err
	}
	output := c.String("output")
	if output != "" && c.NArg() > 1 {
		return usageError(c, "--output takes one FILE")
	}
	for _, f := range c.Args().Slice() {
		data, err := vault.ReadFile(f)
		if err != nil {
			return err
		}
		if encrypt {
			data, err = keys.Encrypt(data, c.String("encrypt-vault-id"))
		} else {
			data, err = keys.Decrypt(data, f)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if err := writeOutput(c, f, output, data); err != nil {
			return err
		}
		what := map[bool]string{true: "Encryption", false: "Decryption"}[encrypt]
		fmt.Fprintf(c.App.ErrWriter, "%s successful\n", what)
	}
	return nil
}

func vaultView(c *cli.Context) error {
	keys, err := vaultCLIKeys(c, false)
	if err != nil {
		return err
	}
	for _, f := range c.Args().Slice() {
		data, err := vault.ReadFile(f)
		if err != nil {
			return err
		}
		plain, err := keys.Decrypt(data, f)
		if err != nil {
			return err
		}
		if _, err := c.App.Writer.Write(plain); err != nil {
			return err
		}
	}
	return nil
}

func vaultRekey(c *cli.Context) error {
	keys, err := vaultCLIKeys(c, false)
	if err != nil {
		return err
	}
	var next vault.Keyring
	id := c.String("new-vault-id")
	if p := c.String("new-vault-password-file"); p != "" {
		err = next.AddSource(c.Context, id, p, nil)
	} else {
		err = next.AddSource(c.Context, id, "prompt", passwordPrompt("New Vault password: ", "Confirm New Vault password: "))
	}
	if err != nil {
		return err
	}
	for _, f := range c.Args().Slice() {
		data, err := vault.ReadFile(f)
		if err != nil {
			return err
		}
		plain, err := keys.Decrypt(data, f)
		if err == nil {
			data, err = next.Encrypt(plain, "")
		}
		if err == nil {
			err = writeOutput(c, f, "", data)
		}
		if err != nil {
			return err
		}
	}
	fmt.Fprintln(c.App.ErrWriter, "Rekey successful")
	return nil
}

func vaultEncryptString(c *cli.Context) error {
	keys, err := vaultCLIKeys(c, true)
	if err != nil {
		return err
	}
	values, names := c.Args().Slice(), c.StringSlice("name")
	if c.Bool("prompt") {
		in := bufio.NewReader(os.Stdin)
		name, err := promptLine(c.App.ErrWriter, in, "Variable name (enter for no name): ")
		if err != nil {
			return err
		}
		var s string
		if c.Bool("show-input") {
			s, err = promptLine(c.App.ErrWriter, in, "String to encrypt: ")
		} else {
			s, err = askPassword(c.App.ErrWriter, in, "String to encrypt (hidden): ")
		}
		if err != nil {
			return err
		}
		if s == "" {
			return &exitError{code: 5, err: errors.New("The plaintext provided from the prompt was empty, not encrypting")}
		}
		values, names = []string{s}, nil
		if name != "" {
			names = []string{name}
		}
	} else if n := c.String("stdin-name"); n != "" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		values, names = []string{string(b)}, []string{n}
	}
	if len(values) == 0 {
		return usageError(c, "give a STRING or --stdin-name")
	}
	for i, v := range values {
		data, err := keys.Encrypt([]byte(v), c.String("encrypt-vault-id"))
		if err != nil {
			return err
		}
		body := "          " + strings.ReplaceAll(strings.TrimSuffix(string(data), "\n"), "\n", "\n          ")
		if i < len(names) {
			fmt.Fprintf(c.App.Writer, "%s: !vault |\n%s\n", names[i], body)
		} else {
			fmt.Fprintf(c.App.Writer, "!vault |\n%s\n", body)
		}
	}
	fmt.Fprintln(c.App.ErrWriter, "Encryption successful")
	return nil
}

// writeOutput writes data to output ("-" is standard output) or, when it
// is "", over file: atomically, to a temporary file beside it renamed over
// it, keeping the file's mode, so that the file is never half-written.
func writeOutput(c *cli.Context, file, output string, data []byte) error {
	if output == "-" {
		_, err := c.App.Writer.Write(data)
		return err
	}
	dst := file
	if output != "" {
		dst = output
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(dst); err == nil {
		mode = fi.Mode().Perm()
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tender-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// promptLine shows prompt on w and reads a line of in, echoed.
func promptLine(w io.Writer, in *bufio.Reader, prompt string) (string, error) {
	fmt.Fprint(w, prompt)
	line, err := in.ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		return "", fmt.Errorf("reading the answer: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}
