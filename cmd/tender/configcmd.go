package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/internal/pyfmt"
)

// configCommand is `tender config` (and ansible-config): dump shows the
// Ansible settings in force and where each came from, view the
// ansible.cfg in use.
func configCommand() *cli.Command {
	refused := func(what string) func(*cli.Context) error {
		return func(*cli.Context) error {
			return fmt.Errorf("tender config %s is not supported: tender config dump shows the settings in force, docs/ lists what tender applies", what)
		}
	}
	return &cli.Command{
		Name:  "config",
		Usage: "show Ansible's settings in force, as ansible-config",
		Subcommands: []*cli.Command{
			{Name: "dump", Usage: "every setting with its origin (NAME(origin) = value)", Flags: []cli.Flag{
				&cli.BoolFlag{Name: "only-changed", Aliases: []string{"changed-only"}, Usage: "only the settings that are not at their default"},
			}, Action: configDump},
			{Name: "view", Usage: "print the ansible.cfg in use", Action: configView},
			{Name: "list", Usage: "(not supported)", Action: refused("list")},
			{Name: "init", Usage: "(not supported)", Action: refused("init")},
		},
	}
}

// loadSettings reads the settings as ansible-config does: no command
// line values; warnings on standard error.
func loadSettings(c *cli.Context) (*config.Config, error) {
	cfg, err := config.Load(config.Options{})
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	for _, w := range cfg.Warnings() {
		printWarning(c.App.ErrWriter, w)
	}
	return cfg, nil
}

func configDump(c *cli.Context) error {
	cfg, err := loadSettings(c)
	if err != nil {
		return err
	}
	return dumpSettings(c.App.Writer, c.App.ErrWriter, cfg, c.Bool("only-changed"))
}

// dumpSettings writes the base settings sorted by name, as
// `ansible-config dump` does: NAME(origin) = value, the value as Python's
// str() prints it, and CONFIG_FILE() = the file in use (or None). A
// setting tender cannot give (DEFAULT_LOCAL_TMP, a path Ansible makes
// for each run) is left out and warned about on errw.
func dumpSettings(w, errw io.Writer, cfg *config.Config, onlyChanged bool) error {
	lines := map[string]string{}
	var file any
	if f := cfg.File(); f != "" {
		file = f
	}
	lines["CONFIG_FILE"] = "CONFIG_FILE() = " + pyfmt.Str(file)
	names := cfg.Changed()
	if !onlyChanged {
		names = nil
		for _, s := range config.Settings() {
			if !strings.HasPrefix(s.Name, "_") { // internal, as ansible-config leaves them out
				names = append(names, s.Name)
			}
		}
	}
	for _, name := range names {
		v, err := cfg.Setting(name)
		if err != nil {
			if onlyChanged {
				return err
			}
			printWarning(errw, fmt.Sprintf("%s left out: %v", name, err))
			continue
		}
		origin := cfg.Origin(name)
		if origin == "" {
			origin = "default"
		}
		text := pyfmt.Str(v)
		if l, ok := v.([]any); ok && origin == "default" && tupleDefaults[name] {
			text = "(" + strings.TrimSuffix(strings.TrimPrefix(pyfmt.Str(l), "["), "]") + ")"
		}
		lines[name] = fmt.Sprintf("%s(%s) = %s", name, origin, text)
	}
	keys := make([]string, 0, len(lines))
	for k := range lines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, err := fmt.Fprintln(w, lines[k]); err != nil {
			return err
		}
	}
	return nil
}

// tupleDefaults are the settings whose documented default is a Python
// tuple, which ansible-config prints in parentheses.
var tupleDefaults = map[string]bool{"INVENTORY_IGNORE_EXTS": true, "MODULE_IGNORE_EXTS": true}

func configView(c *cli.Context) error {
	cfg, err := loadSettings(c)
	if err != nil {
		return err
	}
	if cfg.File() == "" {
		return errors.New("No config file found to view")
	}
	b, err := os.ReadFile(cfg.File())
	if err != nil {
		return err
	}
	_, err = c.App.Writer.Write(b)
	return err
}
