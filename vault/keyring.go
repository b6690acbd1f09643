package vault

import (
	"errors"
	"fmt"
	"sync"
)

// Keyring holds the vault secrets of a run: passwords by vault id, in
// the order they were given. It is safe for concurrent use.
type Keyring struct {
	mu      sync.Mutex
	secrets []secret
	// Match, Ansible's vault_id_match, restricts decryption of data whose
	// header names a vault id to the secrets of that id.
	Match bool
	// Censor, when set, learns every value Decrypt returns, so that
	// output can blank it.
	Censor *Censor
}

type secret struct {
	id       string
	password []byte
}

// Add adds a secret for vault id id ("" is DefaultID). An empty password
// is refused, as Ansible refuses it.
func (k *Keyring) Add(id string, password []byte) error {
	if len(password) == 0 {
		return errors.New("Invalid vault password was provided")
	}
	if id == "" {
		id = DefaultID
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.secrets = append(k.secrets, secret{id: id, password: password})
	return nil
}

// Len is the number of secrets.
func (k *Keyring) Len() int {
	if k == nil {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.secrets)
}

// IDs are the vault ids of the secrets, in order, repeated ids included.
func (k *Keyring) IDs() []string {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	ids := make([]string, len(k.secrets))
	for i, s := range k.secrets {
		ids[i] = s.id
	}
	return ids
}

// Decrypt decrypts vault data, naming filename (the file or file:line:col
// it came from, or "") in its errors. It tries the secrets of the vault
// id the header names first, then, unless Match is set, every other
// secret in order, as Ansible does.
func (k *Keyring) Decrypt(data []byte, filename string) ([]byte, error) {
	plain, _, err := k.DecryptID(data, filename)
	return plain, err
}

// DecryptFunc is Decrypt with no file name, as the loaders and the runner
// take it (inventory.Options.Decrypt, playbooks.Options.Decrypt,
// provision.Runner.Decrypt); nil when the keyring holds no secret, so
// that vaulted data is refused saying how to give one.
func (k *Keyring) DecryptFunc() func(vaulttext []byte) ([]byte, error) {
	if k.Len() == 0 {
		return nil
	}
	return func(b []byte) ([]byte, error) { return k.Decrypt(b, "") }
}

// DecryptID is Decrypt that also returns the vault id of the secret that
// opened the data.
func (k *Keyring) DecryptID(data []byte, filename string) ([]byte, string, error) {
	plain, s, err := k.open(data, filename)
	return plain, s.id, err
}

// Reencrypt encrypts plaintext as vaulttext is encrypted: with the secret
// that opens vaulttext and under the vault id its header names (none for
// format 1.1), as ansible-vault edit saves a file.
func (k *Keyring) Reencrypt(vaulttext, plaintext []byte, filename string) ([]byte, error) {
	_, s, err := k.open(vaulttext, filename)
	if err != nil {
		return nil, err
	}
	env, err := Parse(vaulttext)
	if err != nil {
		return nil, err
	}
	return Encrypt(plaintext, s.password, env.ID)
}

// open decrypts data and returns the secret that opened it.
func (k *Keyring) open(data []byte, filename string) ([]byte, secret, error) {
	var none secret
	on := ""
	if filename != "" {
		on = " on " + filename
	}
	if k.Len() == 0 {
		msg := "A vault password must be specified to decrypt data"
		if filename != "" {
			msg += " in file " + filename
		}
		return nil, none, errors.New(msg)
	}
	env, err := Parse(data)
	switch {
	case err != nil && filename != "" && errors.Is(err, ErrTooLarge):
		return nil, none, fmt.Errorf("%s: %w", filename, err)
	case err != nil && filename != "":
		return nil, none, fmt.Errorf("%w (%s is not a vault encrypted file)", err, filename)
	case err != nil:
		return nil, none, err
	}
	k.mu.Lock()
	var tries []secret
	if env.ID != "" {
		for _, s := range k.secrets {
			if s.id == env.ID {
				tries = append(tries, s)
			}
		}
	}
	if !k.Match || env.ID == "" {
		for _, s := range k.secrets {
			if s.id != env.ID {
				tries = append(tries, s)
			}
		}
	}
	k.mu.Unlock()
	for _, s := range tries {
		// In place: the envelope is ours, and the first secret that
		// passes the HMAC check is the last one tried.
		plain, err := env.open(s.password, true)
		if err == nil {
			k.Censor.AddText(string(plain))
			return plain, s, nil
		}
		if !errors.Is(err, ErrHMAC) {
			if filename != "" {
				return nil, none, fmt.Errorf("There was a vault format error in %s: %w", filename, err)
			}
			return nil, none, err
		}
	}
	return nil, none, errors.New("Decryption failed (no vault secrets were found that could decrypt)" + on)
}

// Encrypt encrypts plaintext with the secret of vault id id, or with the
// first secret when id is "". The data names the secret's id in its
// header unless that is DefaultID.
func (k *Keyring) Encrypt(plaintext []byte, id string) ([]byte, error) {
	s, err := k.pick(id)
	if err != nil {
		return nil, err
	}
	return Encrypt(plaintext, s.password, s.id)
}

func (k *Keyring) pick(id string) (secret, error) {
	var ids []string
	if k != nil {
		k.mu.Lock()
		defer k.mu.Unlock()
		for _, s := range k.secrets {
			if id == "" || s.id == id {
				return s, nil
			}
			ids = append(ids, s.id)
		}
	}
	if id != "" {
		return secret{}, fmt.Errorf("Did not find a match for --encrypt-vault-id=%s in the known vault-ids %v", id, ids)
	}
	return secret{}, errors.New("A vault password is required to use Ansible's Vault")
}
