package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/pydict"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/vault"
)

// vaultFlags are the flags that give vault secrets, as ansible-playbook's.
func vaultFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "vault-id", Usage: "a vault secret: `[ID@]SOURCE`, SOURCE a password file, a password script or 'prompt' (repeatable)"},
		&cli.StringSliceFlag{Name: "vault-password-file", Aliases: []string{"vault-pass-file"}, Usage: "a vault password `FILE` or script, for the default vault id (repeatable)"},
		&cli.BoolFlag{Name: "ask-vault-pass", Aliases: []string{"J", "ask-vault-password"}, Usage: "ask for the vault password"},
	}
}

// vaultKey is where a command's keyring is kept in the app's Metadata, so
// that the inventory, playbook and runner code reach it.
const vaultKey = "tender.vault"

// vaultKeyring builds the keyring of the vault secrets the flags and the
// Ansible settings give, in Ansible's order: DEFAULT_VAULT_IDENTITY_LIST,
// --vault-id, --vault-password-file and DEFAULT_VAULT_PASSWORD_FILE (for
// the default vault id), then a prompt for --ask-vault-pass (or
// DEFAULT_ASK_VAULT_PASS). A source that cannot be read is an error: unlike
// Ansible, which warns and goes on while some secret was found, tender does
// not run with fewer secrets than it was given. The keyring is kept for
// vaultDecrypt and censorEvents.
func vaultKeyring(c *cli.Context, cfg *config.Config) (*vault.Keyring, error) {
	keys := &vault.Keyring{Censor: &vault.Censor{}}
	defaultID := vault.DefaultID
	var ids []string
	askPass := c.Bool("ask-vault-pass")
	var files []string
	if cfg != nil {
		if v, _ := cfg.Setting("DEFAULT_VAULT_IDENTITY"); v != nil && fmt.Sprint(v) != "" {
			defaultID = fmt.Sprint(v)
		}
		if v, _ := cfg.Setting("DEFAULT_VAULT_IDENTITY_LIST"); v != nil {
			if l, ok := v.([]any); ok {
				for _, e := range l {
					ids = append(ids, fmt.Sprint(e))
				}
			}
		}
		if v, _ := cfg.Setting("DEFAULT_VAULT_ID_MATCH"); isTrue(v) {
			keys.Match = true
		}
		if v, _ := cfg.Setting("DEFAULT_ASK_VAULT_PASS"); isTrue(v) {
			askPass = true
		}
	}
	ids = append(ids, c.StringSlice("vault-id")...)
	files = append(files, c.StringSlice("vault-password-file")...)
	if cfg != nil {
		if v, _ := cfg.Setting("DEFAULT_VAULT_PASSWORD_FILE"); v != nil && fmt.Sprint(v) != "" {
			files = append(files, fmt.Sprint(v))
		}
	}
	for _, f := range files {
		ids = append(ids, defaultID+"@"+f)
	}
	if askPass {
		ids = append(ids, defaultID+"@prompt_ask_vault_pass")
	}
	for _, slug := range ids {
		id, src := vault.SplitID(slug)
		if id == "" {
			id = defaultID
		}
		msg := fmt.Sprintf("Vault password (%s): ", id)
		if src == "prompt_ask_vault_pass" {
			msg = "Vault password: "
		}
		if err := keys.AddSource(c.Context, id, src, passwordPrompt(msg, "")); err != nil {
			return nil, &exitError{code: 5, err: err}
		}
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[vaultKey] = keys
	return keys, nil
}

func isTrue(v any) bool { b, ok := v.(bool); return ok && b }

// passwordPrompt asks msg on standard error and reads an answer without
// echo (confirm, when set, asks again and insists on the same answer). It
// is nil when standard input is not a terminal.
func passwordPrompt(msg, confirm string) vault.Prompt {
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return nil
	}
	return func(string) ([]byte, error) {
		pw, err := askPassword(os.Stderr, nil, msg)
		if err != nil || confirm == "" {
			return []byte(pw), err
		}
		again, err := askPassword(os.Stderr, nil, confirm)
		if err != nil {
			return nil, err
		}
		if again != pw {
			return nil, fmt.Errorf("Passwords do not match")
		}
		return []byte(pw), nil
	}
}

// vaultKeys is the keyring vaultKeyring kept, or nil.
func vaultKeys(c *cli.Context) *vault.Keyring {
	k, _ := c.App.Metadata[vaultKey].(*vault.Keyring)
	return k
}

// vaultDecrypt is the decrypter for the loaders and the runner: nil when
// no secret was given, so that vaulted data is refused saying how to give
// one.
func vaultDecrypt(c *cli.Context) yaml11.Decrypter {
	return vaultKeys(c).DecryptFunc()
}

// censorEvents blanks the plaintexts the run decrypted in every event
// before next sees it: messages, results, items, diffs and names.
func censorEvents(c *cli.Context, next func(provision.Event)) func(provision.Event) {
	k := vaultKeys(c)
	if k == nil || k.Censor == nil {
		return next
	}
	cs := k.Censor
	return func(ev provision.Event) {
		if !cs.Empty() {
			ev.Msg, ev.Diff, ev.Task, ev.Play = cs.String(ev.Msg), cs.String(ev.Diff), cs.String(ev.Task), cs.String(ev.Play)
			ev.Item = censorValue(cs, ev.Item)
			if ev.Result != nil {
				ev.Result, _ = censorValue(cs, ev.Result).(map[string]any)
			}
			if ev.Args != nil { // the task's arguments, for --junit
				ev.Args, _ = censorValue(cs, ev.Args).(map[string]any)
			}
			if ev.Recap != nil && ev.Recap.Custom != nil {
				r := *ev.Recap
				r.Custom = map[string]map[string]any{}
				for h, m := range ev.Recap.Custom {
					r.Custom[h], _ = censorValue(cs, m).(map[string]any)
				}
				ev.Recap = &r
			}
		}
		next(ev)
	}
}

// censorValue is v with the censor's secrets blanked in the strings it
// holds; maps and lists are copied (a map keeps its key order), v is not
// changed.
func censorValue(cs *vault.Censor, v any) any {
	switch v := v.(type) {
	case string:
		return cs.String(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = censorValue(cs, e)
		}
		return pydict.Like(out, v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = censorValue(cs, e)
		}
		return out
	case []string:
		out := make([]string, len(v))
		for i, e := range v {
			out[i] = cs.String(e)
		}
		return out
	}
	return v
}
