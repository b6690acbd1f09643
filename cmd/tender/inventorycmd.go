package main

import (
	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/inventory"
)

func inventoryCommand() *cli.Command {
	return &cli.Command{
		Name:  "inventory",
		Usage: "show an inventory as ansible-inventory does",
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "every group, host and host's variables (JSON, as ansible-inventory --list)",
				Flags: inventoryFlags(),
				Action: inventoryAction(true, func(c *cli.Context, inv *inventory.Inventory) error {
					doc, err := inv.List()
					if err != nil {
						return err
					}
					return printJSON(c, doc)
				}),
			},
			{
				Name:      "host",
				Usage:     "one host's merged variables (JSON, as ansible-inventory --host)",
				ArgsUsage: "HOST",
				Flags:     inventoryFlags(),
				Before: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usageError(c, "give exactly one HOST")
					}
					return nil
				},
				Action: inventoryAction(true, func(c *cli.Context, inv *inventory.Inventory) error {
					vars, err := inv.HostVars(c.Args().First())
					if err != nil {
						return err
					}
					return printJSON(c, vars)
				}),
			},
			{
				Name:      "graph",
				Usage:     "the group tree (as ansible-inventory --graph)",
				ArgsUsage: "[GROUP]",
				Flags:     inventoryFlags(&cli.BoolFlag{Name: "vars", Usage: "show variables in the graph"}),
				Action: inventoryAction(false, func(c *cli.Context, inv *inventory.Inventory) error {
					group := "all"
					if c.NArg() > 0 {
						group = c.Args().First()
					}
					return inv.Graph(c.App.Writer, group, c.Bool("vars"))
				}),
			},
		},
	}
}

// inventoryFlags are the flags of every inventory subcommand: -i, the
// vault flags (as ansible-inventory takes them), and extra.
func inventoryFlags(extra ...cli.Flag) []cli.Flag {
	return append(append([]cli.Flag{inventoryFlag(false)}, vaultFlags()...), extra...)
}

// inventoryAction loads the inventory as ansible-inventory does (Ansible's
// settings, and the vault secrets of the flags and of the settings:
// vault_password_file, vault_identity_list) and runs f on it. keepVault
// leaves !vault values encrypted, as --list and --host print them.
func inventoryAction(keepVault bool, f func(c *cli.Context, inv *inventory.Inventory) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		cfg, err := loadConfig(c)
		if err != nil {
			return err
		}
		if _, err := vaultKeyring(c, cfg); err != nil {
			return err
		}
		inv, err := loadInventoryKeeping(c, cfg, keepVault)
		if err != nil {
			return err
		}
		return f(c, inv)
	}
}
