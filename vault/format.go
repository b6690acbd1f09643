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

// Envelope is vault data's header and its decoded body.
type Envelope struct {
	// Version is "1.1" or "1.2".
	Version string
	// Cipher is the cipher name; only AES256 can be decrypted.
	Cipher string
	// ID is the vault id the header names; "" for format 1.1.
	ID string
	// salt, sum and ciphertext are the decoded body; err is what was
	// wrong with it, reported by Decrypt after the cipher is checked.
	salt, sum, ciphertext []byte
	err                   error
}

// Parse splits vault data into its header fields and body, decoding the
// body as it goes: it holds about a quarter of data's size besides data.
// Data larger than MaxSize is refused (the error wraps ErrTooLarge), as
// is data that is not vault data (ErrFormat); a malformed body is
// reported by Decrypt.
func Parse(data []byte) (*Envelope, error) {
	if int64(len(data)) > MaxSize {
		return nil, tooLarge(MaxSize)
	}
	s := newScanner(MaxSize, true, int64(len(data)))
	s.Write(data)
	s.finish()
	if s.headErr != nil {
		return nil, s.headErr
	}
	s.env.err = s.bodyErr
	return &s.env, nil
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
// ErrFormat. The envelope is left as it was.
func (e *Envelope) Decrypt(password []byte) ([]byte, error) {
	return e.open(password, false)
}

// open is Decrypt; inPlace decrypts into the ciphertext's own bytes,
// which leaves the envelope unusable but allocates nothing more.
func (e *Envelope) open(password []byte, inPlace bool) ([]byte, error) {
	if e.Cipher != "AES256" {
		return nil, fmt.Errorf("%s cipher could not be found", e.Cipher)
	}
	if e.err != nil {
		return nil, e.err
	}
	aesKey, macKey, iv, err := deriveKeys(password, e.salt)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, macKey)
	mac.Write(e.ciphertext)
	if !hmac.Equal(mac.Sum(nil), e.sum) {
		return nil, ErrHMAC
	}
	block, err := aes.NewCipher(aesKey)
	if err != nil {
		return nil, err
	}
	n := len(e.ciphertext)
	if n == 0 || n%aes.BlockSize != 0 {
		return nil, fmt.Errorf("%w: the ciphertext is not a whole number of blocks", ErrFormat)
	}
	padded := e.ciphertext
	if !inPlace {
		padded = make([]byte, n)
	}
	cipher.NewCTR(block, iv).XORKeyStream(padded, e.ciphertext)
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
