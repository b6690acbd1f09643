package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/inventory"
)

// inventoryFlag is -i/--inventory, repeatable, as ansible's.
func inventoryFlag(required bool) *cli.StringSliceFlag {
	return &cli.StringSliceFlag{
		Name:     "inventory",
		Aliases:  []string{"i", "inventory-file"},
		Usage:    "inventory file, directory or comma-separated host list (repeatable)",
		Required: required,
		EnvVars:  []string{"TENDER_INVENTORY"},
	}
}

// loadInventory reads the -i sources, or those of Ansible's inventory
// setting (DEFAULT_HOST_LIST: ansible.cfg's inventory=, ANSIBLE_INVENTORY,
// /etc/ansible/hosts by default) in cfg, read here when nil. As
// ansible-playbook, a source that does not exist is warned about and
// skipped, leaving an inventory that may hold no host.
func loadInventory(c *cli.Context, cfg *config.Config) (*inventory.Inventory, error) {
	return loadInventoryKeeping(c, cfg, false)
}

// loadInventoryKeeping is loadInventory; keepVault leaves !vault values
// encrypted (inventory.Options.KeepVaultValues).
func loadInventoryKeeping(c *cli.Context, cfg *config.Config, keepVault bool) (*inventory.Inventory, error) {
	sources, err := inventorySources(c, cfg)
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		if cfg, err = config.Load(config.Options{}); err != nil {
			return nil, &exitError{code: 5, err: err}
		}
	}
	// The default source (/etc/ansible/hosts), absent, is no warning.
	byDefault := len(c.StringSlice("inventory")) == 0 && cfg.Origin("DEFAULT_HOST_LIST") == "default"
	var found []string
	for _, src := range sources {
		if _, err := os.Stat(src); err != nil && !strings.Contains(src, ",") {
			if !byDefault {
				abs, _ := filepath.Abs(src)
				printWarning(c.App.ErrWriter, fmt.Sprintf("Unable to parse %s as an inventory source", abs))
			}
			continue
		}
		found = append(found, src)
	}
	if warn, err := cfg.Setting("INVENTORY_UNPARSED_WARNING"); len(found) == 0 && (err != nil || warn != false) {
		printWarning(c.App.ErrWriter, "No inventory was parsed, only implicit localhost is available")
	}
	merge, err := hashMerge(cfg)
	if err != nil {
		return nil, err
	}
	dupKeys, err := duplicateKeys(cfg)
	if err != nil {
		return nil, err
	}
	plugins, err := cfg.Setting("INVENTORY_ENABLED")
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	show, err := cfg.PluginOption("inventory", "script", "always_show_stderr", nil)
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	opts := inventory.Options{Decrypt: vaultDecrypt(c), HashMerge: merge, DuplicateKeys: dupKeys,
		Scripts: true, Context: c.Context, QuietScripts: show == false, KeepVaultValues: keepVault}
	for _, p := range plugins.([]any) {
		opts.Plugins = append(opts.Plugins, fmt.Sprint(p))
	}
	inv, err := inventory.LoadWith(opts, found...)
	if err != nil {
		return nil, err
	}
	if c.Count("verbose") >= 3 {
		for _, n := range inv.Notes() {
			fmt.Fprintln(c.App.Writer, n)
		}
	}
	for _, e := range inv.Errors() {
		fmt.Fprintf(c.App.ErrWriter, "[ERROR]: %s\n", e)
	}
	for _, w := range inv.Warnings() {
		printWarning(c.App.ErrWriter, w)
	}
	var warned sync.Map // Ansible shows a warning once
	inv.Warn = func(msg string) {
		if _, dup := warned.LoadOrStore(msg, true); !dup {
			printWarning(c.App.ErrWriter, msg)
		}
	}
	return inv, nil
}

// inventorySources are the -i sources, or those of Ansible's inventory
// setting (see loadInventory).
func inventorySources(c *cli.Context, cfg *config.Config) ([]string, error) {
	sources := c.StringSlice("inventory")
	if len(sources) > 0 {
		return sources, nil
	}
	if cfg == nil {
		var err error
		if cfg, err = config.Load(config.Options{}); err != nil {
			return nil, &exitError{code: 5, err: err}
		}
	}
	v, err := cfg.Setting("DEFAULT_HOST_LIST")
	if err != nil {
		return nil, &exitError{code: 5, err: err}
	}
	list, _ := v.([]any)
	for _, s := range list {
		sources = append(sources, fmt.Sprint(s))
	}
	return sources, nil
}

// sourcesVar is ansible_inventory_sources: the inventory sources, paths
// made absolute, host lists ("a,b,") as given, as ansible-playbook
// reports them.
func sourcesVar(c *cli.Context, cfg *config.Config) []string {
	sources, err := inventorySources(c, cfg)
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(sources))
	for _, s := range sources {
		if !strings.Contains(s, ",") {
			if abs, err := filepath.Abs(s); err == nil {
				s = abs
			}
		}
		out = append(out, s)
	}
	return out
}

func printJSON(c *cli.Context, v any) error {
	data, err := inventory.JSON(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.App.Writer, "%s\n", data)
	return err
}

// usageError is a command-line mistake: exit code 5, ansible's code for
// bad or incomplete options.
func usageError(c *cli.Context, msg string) error {
	return &exitError{code: 5, err: fmt.Errorf("%s %s: %s", c.App.Name, c.Command.FullName(), msg)}
}
