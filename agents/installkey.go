package agents

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tender-sh/tender/provision"
)

// InstallKey adds publicKey (an authorized_keys line: "ssh-ed25519
// AAAA... comment"; transport/ssh.AuthorizedKey makes one from a key held
// in memory) to the login user's ~/.ssh/authorized_keys on t, with the
// authorized_key module: once, a second call changes nothing. It is
// the control plane's first step with a new host reached by password
// (t.Password): afterwards, its targets log in with the key and no
// password. The login user is t.User, else the one the target logs in
// as ("id -un" on it).
func (c *Caller) InstallKey(ctx context.Context, t provision.Target, publicKey string) (*CallResult, error) {
	publicKey = strings.TrimSpace(publicKey)
	if publicKey == "" || strings.ContainsAny(publicKey, "\n\r") {
		return nil, errors.New("install key: want one authorized_keys line")
	}
	user := t.User
	if user == "" {
		res, err := c.Call(ctx, t, "command", map[string]any{"argv": []any{"id", "-un"}})
		if err != nil {
			return res, err
		}
		if user, _ = res.Data["stdout"].(string); user == "" {
			return res, fmt.Errorf("%s: install key: the login user is unknown", t.Name)
		}
	}
	return c.Call(ctx, t, "authorized_key", map[string]any{"user": user, "key": publicKey, "state": "present"})
}
