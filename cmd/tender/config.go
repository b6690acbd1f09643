package main

import (
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
)

// loadConfig reads Ansible's configuration as ansible-playbook does when
// it starts: the ANSIBLE_* variables and the ansible.cfg its search order
// finds, with -u and --private-key as its command line would give them
// (the last --private-key, made absolute). What Ansible would warn about is
// printed; a setting that does not read is an error (exit 5, as
// ansible-playbook). tender reports these settings (the config lookup);
// applying them to what it does is later work.
func loadConfig(c *cli.Context) (*config.Config, error) {
	given := map[string]any{}
	if u := c.String("user"); u != "" {
		given["remote_user"] = u
	}
	if keys := c.StringSlice("private-key"); len(keys) > 0 {
		k, err := filepath.Abs(keys[len(keys)-1])
		if err != nil {
			return nil, &exitError{code: 5, err: err}
		}
		given["private_key_file"] = k
	}
	cfg, err := config.Load(config.Options{CLI: given})
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	for _, w := range cfg.Warnings() {
		fmt.Fprintf(c.App.ErrWriter, "[WARNING]: %s\n", w)
	}
	return cfg, nil
}
