package expr

import (
	"strings"
)

// Vault is the Ansible Vault cryptography the templates reach through
// Env.Vault: the unvault and file lookups open vault-encrypted files with
// the run's secrets, the vault and unvault filters encrypt and decrypt
// with the password they are given. A vault.Templates fits. Methods may
// be called from several goroutines at once.
type Vault interface {
	// Decrypt opens vault data with the run's secrets; file names the
	// data in errors.
	Decrypt(vaulttext []byte, file string) ([]byte, error)
	// Seal encrypts plaintext with password under vault id id (format
	// 1.2 with the id in the header, 1.1 for "" and "default"); a nil
	// salt is a random one.
	Seal(plaintext, password []byte, id string, salt []byte) ([]byte, error)
	// Unseal opens vault data with password alone.
	Unseal(vaulttext, password []byte) ([]byte, error)
}

// vaultHeader starts every piece of Ansible Vault data.
const vaultHeader = "$ANSIBLE_VAULT"

// isVaultText is Ansible's is_encrypted: ASCII text that starts with the
// vault header.
func isVaultText(b []byte) bool {
	if !strings.HasPrefix(string(b), vaultHeader) {
		return false
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// vaultOf is env's Vault, or an error naming the plugin that needs it.
func vaultOf(env *Env, kind, name string) (Vault, error) {
	if env == nil || env.Vault == nil {
		return nil, errorf("the %s '%s' needs Ansible Vault, which this evaluation was not given", kind, name)
	}
	return env.Vault, nil
}

// openFile is a lookup's read of a controller file: vault-encrypted
// content is decrypted with the run's secrets, as Ansible's loader does.
func openFile(env *Env, path string) ([]byte, error) {
	b, err := readFile(env, path)
	if err != nil || !isVaultText(b) {
		return b, err
	}
	if env.Vault == nil {
		return nil, &lookupFailure{"A vault password or secret must be specified to decrypt " + path}
	}
	plain, err := env.Vault.Decrypt(b, path)
	if err != nil {
		return nil, &lookupFailure{err.Error()}
	}
	return plain, nil
}

// unvaultLookup returns the content of each file, decrypted when it is
// vault-encrypted and as it is otherwise; unlike file it strips nothing.
func unvaultLookup(ev *evaluator, terms []any, _ map[string]any) ([]any, error) {
	files, err := readFiles(envOf(ev.scope), terms, func(name string) error {
		return &lookupFailure{"Unable to find file matching \"" + name + "\" "}
	})
	if err != nil {
		return nil, err
	}
	return toList(files), nil
}

// readFiles reads the file each term names, found as locate finds it and
// decrypted as openFile does.
func readFiles(env *Env, terms []any, notFound func(name string) error) ([]string, error) {
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		p, err := locate(env, Str(t), notFound)
		if err != nil {
			return nil, err
		}
		b, err := openFile(env, p)
		if err != nil {
			return nil, err
		}
		out = append(out, string(b))
	}
	return out, nil
}

// locate finds the file name along env's search path; notFound makes the
// error for a name not found there.
func locate(env *Env, name string, notFound func(name string) error) (string, error) {
	p, ok, err := env.find(name)
	if err == nil && !ok {
		err = notFound(name)
	}
	return p, err
}

// vaultBytes is a filter argument that must be a string; an undefined
// one fails as undefined, as Ansible's strict undefined does when it is
// turned into bytes.
func vaultBytes(v any) ([]byte, bool, error) {
	if u, ok := v.(*undefined); ok {
		return nil, true, u.err()
	}
	if s, ok := text(v); ok {
		return []byte(s), true, nil
	}
	return nil, false, nil
}

// vaultOperands returns the secret argument and x of the vault and unvault
// filters as bytes; either not a string fails with its message (followed
// by the type found).
func vaultOperands(x any, args []any, kw map[string]any, secretMsg, dataMsg string) (secret, data []byte, err error) {
	s := argOr(args, kw, 0, "secret", nil)
	secret, ok, err := vaultBytes(s)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, errorf("%s, instead we got: %s", secretMsg, pyClass(s))
	}
	data, ok, err = vaultBytes(x)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, errorf("%s, instead we got: %s", dataMsg, pyClass(x))
	}
	return secret, data, nil
}

// fVault is vault(secret, salt=None, vault_id='filter_default',
// wrap_object=False): data encrypted with secret, as vault text.
func fVault(env *Env, x any, args []any, kw map[string]any) (any, error) {
	secret, data, err := vaultOperands(x, args, kw, "Secret passed is required to be a string", "Can only vault strings")
	if err != nil {
		return nil, err
	}
	var salt []byte
	if s := argOr(args, kw, 1, "salt", nil); s != nil {
		salt = []byte(Str(s))
		if len(salt) == 0 {
			return nil, errorf("Unable to encrypt: Empty or invalid salt passed to encrypt()")
		}
	}
	id := Str(argOr(args, kw, 2, "vaultid", "filter_default"))
	if Truthy(argOr(args, kw, 3, "wrap_object", false)) {
		return nil, errorf("vault: wrap_object=True is not supported by tender: its values are plain text, never vault objects")
	}
	v, err := vaultOf(env, "filter", "vault")
	if err != nil {
		return nil, err
	}
	out, err := v.Seal(data, secret, id, salt)
	if err != nil {
		return nil, errorf("Unable to encrypt: %s", err.Error())
	}
	return string(out), nil
}

// fUnvault is unvault(secret, vault_id='filter_default'): vault text
// decrypted with secret; any other string is returned as it is.
func fUnvault(env *Env, x any, args []any, kw map[string]any) (any, error) {
	secret, data, err := vaultOperands(x, args, kw, "Secret passed is required to be as string", "Vault should be in the form of a string")
	if err != nil {
		return nil, err
	}
	if !isVaultText(data) {
		return string(data), nil
	}
	v, err := vaultOf(env, "filter", "unvault")
	if err != nil {
		return nil, err
	}
	plain, err := v.Unseal(data, secret)
	if err != nil {
		return nil, errorf("Unable to decrypt: %s", err.Error())
	}
	return string(plain), nil
}

// pyClass is Python's repr of type(v): "<class 'int'>".
func pyClass(v any) string { return "<class '" + typeName(v) + "'>" }

var vaultFilters = map[string]filterFunc{
	"vault":   fVault,
	"unvault": fUnvault,
}
