package main

import (
	"fmt"
	"path/filepath"
	"strings"

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
	if c.Count("verbose") > 0 {
		if f := cfg.File(); f != "" {
			fmt.Fprintf(c.App.Writer, "Using %s as config file\n", f)
		} else {
			fmt.Fprintln(c.App.Writer, "No config file found; using defaults")
		}
	}
	// Settings are read for the config lookup; the ones that would change
	// what ansible-playbook does are not acted on yet: say so rather than
	// seem to honour them.
	var ignored []string
	for _, name := range cfg.Changed() {
		if !appliedSettings[name] {
			ignored = append(ignored, name+" ("+cfg.Origin(name)+")")
		}
	}
	if len(ignored) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "[WARNING]: tender does not apply these Ansible settings yet (its own flags do what they do): %s\n", strings.Join(ignored, ", "))
	}
	return cfg, nil
}

// appliedSettings are the Ansible settings tender acts on.
var appliedSettings = map[string]bool{"ANSIBLE_NOCOLOR": true, "DEFAULT_FORKS": true, "DEFAULT_HOST_LIST": true}
