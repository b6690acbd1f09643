package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print tender's version and the ansible-core release it follows",
		// --as is the Ansible command tender stands in for (dropIn).
		Flags: []cli.Flag{&cli.StringFlag{Name: "as", Hidden: true}},
		Action: func(c *cli.Context) error {
			name := c.App.Name
			if c.String("as") != "" {
				name = c.String("as")
			}
			return printVersion(c.App.Writer, name)
		},
	}
}

func init() {
	cli.VersionPrinter = func(c *cli.Context) { _ = printVersion(c.App.Writer, c.App.Name) }
}

// wantsVersion reports whether args (an Ansible command's) ask for
// --version, which Ansible's argument parser answers wherever it stands
// before a "--".
func wantsVersion(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--version":
			return true
		}
	}
	return false
}

// printVersion prints the version as ansible-playbook's --version does,
// under the name tender was invoked by: a first line "NAME [core X]"
// that tools parsing Ansible's version accept (X is the ansible-core
// release tender follows, config.AnsibleVersion), then the config file
// Ansible's settings come from and tender's own version. When NAME is
// tender, its version comes first: "tender V [core X]".
func printVersion(w io.Writer, name string) error {
	first := fmt.Sprintf("%s [core %s]", name, config.AnsibleVersion)
	if name == "tender" {
		first = fmt.Sprintf("tender %s [core %s]", version, config.AnsibleVersion)
	}
	file := "None"
	if cfg, err := config.Load(config.Options{}); err == nil && cfg.File() != "" {
		file = cfg.File()
	}
	exe, err := os.Executable()
	if err != nil {
		exe = "unknown"
	}
	_, err = fmt.Fprintf(w, "%s\n  config file = %s\n  tender version = %s\n  executable location = %s\n", first, file, version, exe)
	return err
}
