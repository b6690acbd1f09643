// Package vault reads and writes Ansible Vault data (format 1.1 and 1.2,
// cipher AES256) and holds the vault secrets a run may decrypt with.
//
// The format: a header line "$ANSIBLE_VAULT;1.1;AES256" (or
// "$ANSIBLE_VAULT;1.2;AES256;<vault id>"), then the hex encoding of
// "hex(salt)\nhex(hmac)\nhex(ciphertext)" in lines of 80 characters. The
// keys come from PBKDF2-HMAC-SHA256 (10000 iterations, 80 bytes): an
// AES-256 key, an HMAC-SHA256 key and a 16-byte CTR counter block. The
// plaintext is PKCS#7-padded to 16 bytes and encrypted with AES-256-CTR;
// the HMAC covers the ciphertext and is checked before decrypting.
//
// The package is a leaf: it imports only the standard library.
package vault

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Header is the prefix every piece of vault data starts with.
const Header = "$ANSIBLE_VAULT"

// DefaultID is the vault id of a secret given without one, and of data
// whose header names none (format 1.1).
const DefaultID = "default"

const (
	saltLen    = 32
	keyLen     = 32
	ivLen      = aes.BlockSize
	iterations = 10000
	lineWidth  = 80
)

// ErrFormat is wrapped by every error about malformed vault data.
var ErrFormat = errors.New("vault format error")

// ErrHMAC is wrapped by the error of a secret that does not open the data.
var ErrHMAC = errors.New("HMAC verification failed")

// IsEncrypted reports whether data is vault data: ASCII that starts with
// the vault header.
func IsEncrypted(data []byte) bool {
	if !bytes.HasPrefix(data, []byte(Header+";")) {
		return false
	}
	for _, b := range data {
		if b >= 0x80 {
			return false
		}
	}
	return true
}

// Envelope is vault data's header and its still-encoded body.
type Envelope struct {
	// Version is "1.1" or "1.2".
	Version string
	// Cipher is the cipher name; only AES256 can be decrypted.
	Cipher string
	// ID is the vault id the header names; "" for format 1.1.
	ID string
	// body is the hex body with its line breaks removed.
	body []byte
}

// Parse splits vault data into its header fields and body.
func Parse(data []byte) (*Envelope, error) {
	if !IsEncrypted(data) {
		return nil, fmt.Errorf("%w: input is not vault encrypted data", ErrFormat)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	fields := strings.Split(strings.TrimSpace(lines[0]), ";")
	if len(fields) < 3 {
		return nil, fmt.Errorf("%w: the header %q has no version or cipher", ErrFormat, lines[0])
	}
	e := &Envelope{Version: strings.TrimSpace(fields[1]), Cipher: strings.TrimSpace(fields[2])}
	if len(fields) >= 4 {
		e.ID = strings.TrimSpace(fields[3])
	}
	var body strings.Builder
	for _, l := range lines[1:] {
		body.WriteString(strings.TrimSpace(l))
	}
	e.body = []byte(body.String())
	return e, nil
}

// Encrypt encrypts plaintext with password and returns the vault data,
// newline-terminated. A vault id other than "" and "default" makes the
// data format 1.2 with the id in its header; otherwise it is 1.1.
func Encrypt(plaintext, password []byte, id string) ([]byte, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	return encryptSalt(plaintext, password, id, salt)
}

func encryptSalt(plaintext, password []byte, id string, salt []byte) ([]byte, error) {
	if len(password) == 0 {
		return nil, errors.New("an empty vault password cannot encrypt")
	}
	if IsEncrypted(plaintext) {
		return nil, errors.New("input is already encrypted")
	}
	if strings.ContainsAny(id, ";\r\n") {
		return nil, fmt.Errorf("a vault id cannot contain ';' or a line break: %q", id)
	}
	aesKey, macKey, iv, err := deriveKeys(password, salt)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(aesKey)
	if err != nil {
		return nil, err
	}
	pad := aes.BlockSize - len(plaintext)%aes.BlockSize
	padded := append(bytes.Clone(plaintext), bytes.Repeat([]byte{byte(pad)}, pad)...)
	ciphertext := make([]byte, len(padded))
	cipher.NewCTR(block, iv).XORKeyStream(ciphertext, padded)
	mac := hmac.New(sha256.New, macKey)
	mac.Write(ciphertext)

	inner := strings.Join([]string{hex.EncodeToString(salt), hex.EncodeToString(mac.Sum(nil)), hex.EncodeToString(ciphertext)}, "\n")
	body := hex.EncodeToString([]byte(inner))

	var out strings.Builder
	if id == "" || id == DefaultID {
		out.WriteString(Header + ";1.1;AES256\n")
	} else {
		out.WriteString(Header + ";1.2;AES256;" + id + "\n")
	}
	for i := 0; i < len(body); i += lineWidth {
		out.WriteString(body[i:min(i+lineWidth, len(body))])
		out.WriteByte('\n')
	}
	return []byte(out.String()), nil
}

// Decrypt opens the envelope with password. A password that does not
// open it gives an error wrapping ErrHMAC; malformed data one wrapping
// ErrFormat.
func (e *Envelope) Decrypt(password []byte) ([]byte, error) {
	if e.Cipher != "AES256" {
		return nil, fmt.Errorf("%s cipher could not be found", e.Cipher)
	}
	inner, err := hex.DecodeString(string(e.body))
	if err != nil {
		return nil, fmt.Errorf("%w: Vault format unhexlify error: %v", ErrFormat, err)
	}
	parts := bytes.SplitN(inner, []byte("\n"), 3)
	if len(parts) != 3 {
		return nil, fmt.Errorf("%w: the vaulttext does not hold a salt, an HMAC and a ciphertext", ErrFormat)
	}
	salt, err1 := hex.DecodeString(string(parts[0]))
	sum, err2 := hex.DecodeString(string(parts[1]))
	ciphertext, err3 := hex.DecodeString(string(parts[2]))
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, fmt.Errorf("%w: Vault format unhexlify error: %v", ErrFormat, err)
	}
	aesKey, macKey, iv, err := deriveKeys(password, salt)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, macKey)
	mac.Write(ciphertext)
	if !hmac.Equal(mac.Sum(nil), sum) {
		return nil, ErrHMAC
	}
	block, err := aes.NewCipher(aesKey)
	if err != nil {
		return nil, err
	}
	padded := make([]byte, len(ciphertext))
	cipher.NewCTR(block, iv).XORKeyStream(padded, ciphertext)
	n := len(padded)
	if n == 0 || n%aes.BlockSize != 0 {
		return nil, fmt.Errorf("%w: the ciphertext is not a whole number of blocks", ErrFormat)
	}
	pad := int(padded[n-1])
	if pad == 0 || pad > aes.BlockSize || !bytes.Equal(padded[n-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
		return nil, fmt.Errorf("%w: invalid padding", ErrFormat)
	}
	return padded[:n-pad], nil
}

// deriveKeys turns a password and salt into the AES key, the HMAC key and
// the CTR counter block.
func deriveKeys(password, salt []byte) (aesKey, macKey, iv []byte, err error) {
	if len(salt) == 0 {
		return nil, nil, nil, fmt.Errorf("%w: empty salt", ErrFormat)
	}
	k, err := pbkdf2.Key(sha256.New, string(password), salt, iterations, 2*keyLen+ivLen)
	if err != nil {
		return nil, nil, nil, err
	}
	return k[:keyLen], k[keyLen : 2*keyLen], k[2*keyLen:], nil
}
