package yaml11

import (
	"bytes"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// vaultHeader starts every piece of Ansible Vault data.
const vaultHeader = "$ANSIBLE_VAULT;"

// IsVaulted reports whether data is a whole vault-encrypted file.
func IsVaulted(data []byte) bool { return bytes.HasPrefix(data, []byte(vaultHeader)) }

// vaulted decrypts a `!vault` scalar: its plaintext, as text, is the value.
func (c *converter) vaulted(n *yaml.Node) (any, error) {
	if c.keepVault {
		if !IsVaulted([]byte(n.Value)) {
			return nil, errAt(n, "a value tagged !vault does not hold vault-encrypted data")
		}
		return map[string]any{"__ansible_vault": n.Value}, nil
	}
	if c.decrypt == nil {
		return nil, errAt(n, "a vault-encrypted value, but no vault secret was given (--vault-id, --vault-password-file or --ask-vault-pass)")
	}
	if !IsVaulted([]byte(n.Value)) {
		return nil, errAt(n, "a value tagged !vault does not hold vault-encrypted data")
	}
	plain, err := c.decrypt([]byte(n.Value))
	if err != nil {
		return nil, errAt(n, "%v", err)
	}
	if !utf8.Valid(plain) {
		return nil, errAt(n, "the vault-encrypted value is not UTF-8 text")
	}
	return string(plain), nil
}

// Open returns data as it is or, when it is a whole vault-encrypted file,
// decrypted with the decoder's Decrypt; name is what errors call it.
func (d *Decoder) Open(data []byte, name string) ([]byte, error) {
	if !IsVaulted(data) {
		return data, nil
	}
	if d.Decrypt == nil {
		return nil, &FileError{Name: name, Err: errNoSecret}
	}
	plain, err := d.Decrypt(data)
	if err != nil {
		return nil, &FileError{Name: name, Err: err}
	}
	return plain, nil
}

// FileError is an error about a whole file, as "name: err".
type FileError struct {
	Name string
	Err  error
}

// Error implements error.
func (e *FileError) Error() string { return e.Name + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *FileError) Unwrap() error { return e.Err }

type noSecretError struct{}

func (noSecretError) Error() string {
	return "a vault-encrypted file, but no vault secret was given (--vault-id, --vault-password-file or --ask-vault-pass)"
}

var errNoSecret error = noSecretError{}
