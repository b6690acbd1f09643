package vault

import (
	"errors"
	"fmt"
)

// Templates is the vault cryptography a template engine needs (it
// satisfies playbooks/expr's Vault): Decrypt opens data with the run's
// secrets through Open, Seal and Unseal encrypt and decrypt with a
// password they are given (Ansible's vault and unvault filters). It is
// safe for concurrent use when Open is.
type Templates struct {
	// Open decrypts with the run's secrets (a Keyring's Decrypt fits);
	// nil means the run has none.
	Open func(vaulttext []byte) ([]byte, error)
}

// Decrypt opens vaulttext with the run's secrets; file names it in
// errors.
func (t Templates) Decrypt(vaulttext []byte, file string) ([]byte, error) {
	if t.Open == nil {
		return (&Keyring{}).Decrypt(vaulttext, file)
	}
	plain, err := t.Open(vaulttext)
	if err != nil && file != "" {
		return nil, fmt.Errorf("%w on %s", err, file)
	}
	return plain, err
}

// Seal encrypts plaintext with password under vault id id; a nil salt is
// a random one, an empty one is refused.
func (Templates) Seal(plaintext, password []byte, id string, salt []byte) ([]byte, error) {
	if salt == nil {
		return Encrypt(plaintext, password, id)
	}
	if len(salt) == 0 {
		return nil, errors.New("Empty or invalid salt passed to encrypt()")
	}
	return encryptSalt(plaintext, password, id, salt)
}

// Unseal opens vaulttext with password alone.
func (Templates) Unseal(vaulttext, password []byte) ([]byte, error) {
	var k Keyring
	if err := k.Add("", password); err != nil {
		return nil, err
	}
	return k.Decrypt(vaulttext, "")
}
