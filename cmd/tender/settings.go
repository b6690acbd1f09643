package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/provision"
)

// setting returns the value of Ansible setting name in cfg and whether it
// was set (by ANSIBLE_* or ansible.cfg) rather than left at its default.
func setting(cfg *config.Config, name string) (any, bool, error) {
	v, err := cfg.Setting(name)
	if err != nil {
		return nil, false, &exitError{code: 5, err: err}
	}
	o := cfg.Origin(name)
	return v, o != "" && o != "default", nil
}

// forks is -f, else DEFAULT_FORKS when ANSIBLE_FORKS or ansible.cfg set
// it, else tender's own default (provision.DefaultForks, more than
// Ansible's 5: a fork is a goroutine here, not a process).
func forks(c *cli.Context, cfg *config.Config) (int, error) {
	if c.IsSet("forks") {
		return c.Int("forks"), nil
	}
	v, set, err := setting(cfg, "DEFAULT_FORKS")
	if err != nil || !set {
		return provision.DefaultForks, err
	}
	n, ok := v.(int)
	if !ok || n < 1 {
		return 0, &exitError{code: 5, err: fmt.Errorf("DEFAULT_FORKS (%s): %v is not a number of forks", cfg.Origin("DEFAULT_FORKS"), v)}
	}
	return n, nil
}
