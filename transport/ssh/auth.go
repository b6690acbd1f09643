package ssh

import (
	"crypto"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"
	"sync"

	"github.com/tender-sh/tender/transport"
	xssh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// keyCache holds the signers of key files already read (and decrypted), so
// a passphrase is asked once per file, not once per host.
type keyCache struct {
	mu      sync.Mutex
	signers map[string]xssh.Signer
}

// signer loads the private key in file (read as h reads its files),
// asking d.Passphrase when it is encrypted. Errors name the file, never
// the passphrase.
func (d *Dialer) signer(h *hop, file string) (xssh.Signer, error) {
	d.keys.mu.Lock()
	defer d.keys.mu.Unlock()
	if s, ok := d.keys.signers[file]; ok {
		return s, nil
	}
	pem, err := h.readFile(file)
	if err != nil {
		return nil, fmt.Errorf("private key: %w", err)
	}
	s, err := xssh.ParsePrivateKey(pem)
	var missing *xssh.PassphraseMissingError
	if errors.As(err, &missing) {
		if d.Passphrase == nil {
			return nil, fmt.Errorf("private key %s is encrypted and no passphrase was given", file)
		}
		pass, perr := d.Passphrase(file)
		if perr != nil {
			return nil, fmt.Errorf("private key %s: passphrase: %w", file, perr)
		}
		s, err = xssh.ParsePrivateKeyWithPassphrase(pem, pass)
		clear(pass)
		if err != nil {
			return nil, fmt.Errorf("private key %s: cannot decrypt it with the passphrase given", file)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("private key %s: %w", file, err)
	}
	if d.keys.signers == nil {
		d.keys.signers = map[string]xssh.Signer{}
	}
	d.keys.signers[file] = s
	return s, nil
}

// memSigner is the signer of a key held in memory: its PEM parsed (and
// decrypted with its passphrase) once per key, or its Signer, an
// ssh.Signer or a crypto.Signer. Errors name the key by its ID only.
func (d *Dialer) memSigner(k transport.Key) (xssh.Signer, error) {
	switch s := k.Signer.(type) {
	case nil:
	case xssh.Signer:
		return s, nil
	case crypto.Signer:
		ss, err := xssh.NewSignerFromSigner(s)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", k, err)
		}
		return ss, nil
	default:
		return nil, fmt.Errorf("%v: a key's Signer must be an ssh.Signer or a crypto.Signer", k)
	}
	id := "\x00mem:" + k.ID()
	d.keys.mu.Lock()
	defer d.keys.mu.Unlock()
	if s, ok := d.keys.signers[id]; ok {
		return s, nil
	}
	if len(k.PEM) == 0 {
		return nil, errors.New("private key held in memory is empty: give its PEM or a Signer")
	}
	s, err := xssh.ParsePrivateKey(k.PEM)
	var missing *xssh.PassphraseMissingError
	if errors.As(err, &missing) {
		if k.Passphrase == nil {
			return nil, fmt.Errorf("%v is encrypted and no passphrase was given", k)
		}
		if s, err = xssh.ParsePrivateKeyWithPassphrase(k.PEM, k.Passphrase); err != nil {
			return nil, fmt.Errorf("%v: cannot decrypt it with the passphrase given", k)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %w", k, err)
	}
	if d.keys.signers == nil {
		d.keys.signers = map[string]xssh.Signer{}
	}
	d.keys.signers[id] = s
	return s, nil
}

// authMethods returns, in order: public keys (h's keys held in memory, its key files, then ssh
// config's or the default ones that exist, then the agent's), then the
// password, also as keyboard-interactive. cleanup closes the agent
// connection once the handshake is over.
func (d *Dialer) authMethods(h *hop) ([]xssh.AuthMethod, func(), error) {
	var signers []xssh.Signer
	for _, k := range h.keys {
		s, err := d.memSigner(k)
		if err != nil {
			return nil, nil, err
		}
		signers = append(signers, s)
	}
	for _, f := range h.keyFiles {
		s, err := d.signer(h, f)
		if err != nil {
			return nil, nil, err
		}
		signers = append(signers, s)
	}
	for _, f := range h.extraKeys {
		if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		s, err := d.signer(h, f)
		if err != nil {
			return nil, nil, err
		}
		signers = append(signers, s)
	}
	cleanup := func() {}
	sock := d.AgentSocket
	if sock == "" {
		sock = os.Getenv("SSH_AUTH_SOCK")
	}
	if !d.NoAgent && sock != "" {
		if nc, err := net.Dial("unix", sock); err == nil {
			cleanup = func() { nc.Close() }
			if as, err := agent.NewClient(nc).Signers(); err == nil {
				signers = append(signers, as...)
			}
		}
	}
	var methods []xssh.AuthMethod
	if len(signers) > 0 {
		methods = append(methods, xssh.PublicKeys(signers...))
	}
	if pw := h.password; pw != "" {
		methods = append(methods,
			xssh.Password(pw),
			xssh.KeyboardInteractive(func(_, _ string, questions []string, _ []bool) ([]string, error) {
				answers := make([]string, len(questions))
				for i := range answers {
					answers[i] = pw
				}
				return answers, nil
			}))
	}
	if len(methods) == 0 {
		cleanup()
		return nil, nil, fmt.Errorf("no way to log in to %s: no key file, agent key or password", h.alias)
	}
	return methods, cleanup, nil
}

// AuthorizedKey is the authorized_keys line of the public half of k (a
// key held in memory, as transport.Target.Keys takes it), with comment
// after it when not empty: what a control plane installs on a host, over
// a first password login, so that later logins use the key.
func AuthorizedKey(k transport.Key, comment string) (string, error) {
	var d Dialer
	s, err := d.memSigner(k)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(string(xssh.MarshalAuthorizedKey(s.PublicKey())))
	if comment = strings.TrimSpace(comment); comment != "" {
		line += " " + comment
	}
	return line, nil
}
