package transport

import (
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"reflect"
)

// Key is a private key held in memory: the key text (PEM, or OpenSSH's
// own format), or a signer that holds the key itself (an ssh.Signer of
// golang.org/x/crypto/ssh, or a crypto.Signer such as an HSM's or an
// agent's). A connection type that takes keys (ssh) offers it before its
// key files; one that cannot use a Signer's type refuses the target.
//
// Its String and GoString show only a fingerprint, so that a Key printed
// by mistake, in a log or an error, gives nothing away.
type Key struct {
	// PEM is the private key's text. Empty when Signer is set.
	PEM []byte
	// Passphrase opens an encrypted PEM; it is never logged.
	Passphrase []byte
	// Signer signs with a key the program holds elsewhere; nil when PEM
	// is set.
	Signer any
}

// ID tells keys apart without revealing them: a hash of the key text, or
// of the signer's public key. Connections are shared between targets only when
// their keys' IDs agree.
func (k Key) ID() string {
	if k.Signer != nil {
		return "signer:" + signerID(k.Signer)
	}
	sum := sha256.New()
	sum.Write(k.PEM)
	sum.Write([]byte{0})
	sum.Write(k.Passphrase)
	return "pem:" + hex.EncodeToString(sum.Sum(nil)[:12])
}

// String shows the key's kind and ID, never the key.
func (k Key) String() string {
	if k.Signer != nil {
		return fmt.Sprintf("private key (signer %T)", k.Signer)
	}
	return "private key (" + k.ID() + ")"
}

// GoString is String, so that %#v hides the key too.
func (k Key) GoString() string { return k.String() }

// signerID is a hash of a signer's public key: an ssh.Signer's
// PublicKey().Marshal(), or a crypto.Signer's public key in PKIX form.
// A signer of another type is told apart by its type and address.
func signerID(s any) string {
	var pub []byte
	if cs, ok := s.(crypto.Signer); ok {
		pub, _ = x509.MarshalPKIXPublicKey(cs.Public())
	} else if m := reflect.ValueOf(s).MethodByName("PublicKey"); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 {
		if pk := m.Call(nil)[0]; pk.IsValid() && !pk.IsZero() {
			if mm, ok := pk.Interface().(interface{ Marshal() []byte }); ok {
				pub = mm.Marshal()
			}
		}
	}
	if pub == nil {
		v := reflect.ValueOf(s)
		if v.Kind() == reflect.Pointer {
			return fmt.Sprintf("%T@%x", s, v.Pointer())
		}
		return fmt.Sprintf("%T", s)
	}
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:12])
}
