package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// dropIns are the Ansible commands tender stands in for when it is
// invoked by their name (a link made by `tender links`), each with the
// tender command it becomes.
var dropIns = map[string]string{
	"ansible-playbook":  "play",
	"ansible":           "run",
	"ansible-inventory": "inventory",
	"ansible-vault":     "vault",
	"ansible-doc":       "doc",
	"ansible-config":    "config",
}

// dropIn rewrites the command line of tender invoked as an Ansible
// command (argv[0]'s base name) into tender's: `ansible-playbook ARGS`
// is `tender play ARGS`, `ansible-inventory --list|--host H|--graph [G]`
// is `tender inventory list|host H|graph [G]`, and so on. Any other name
// leaves args as they are. A command this build does not have is an
// error that names it.
func dropIn(app *cli.App, args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	name := filepath.Base(args[0])
	sub, ok := dropIns[name]
	if !ok {
		return args, nil
	}
	if app.Command(sub) == nil {
		return nil, fmt.Errorf("%s needs `tender %s`, which this build of tender does not have", name, sub)
	}
	rest := args[1:]
	if wantsVersion(rest) {
		return []string{args[0], "version", "--as", name}, nil
	}
	if sub == "inventory" {
		var err error
		if rest, err = inventoryArgs(rest); err != nil {
			return nil, &exitError{code: 2, err: fmt.Errorf("%s: %w", name, err)}
		}
	}
	return append([]string{args[0], sub}, rest...), nil
}

// inventoryArgs turns ansible-inventory's options into a `tender
// inventory` subcommand: --list, --host HOST or --graph with the group as
// its positional argument; the other options pass through.
func inventoryArgs(args []string) ([]string, error) {
	action, host := "", ""
	var rest, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--list" || a == "--graph":
			action = a[2:]
		case a == "--host":
			if i+1 >= len(args) {
				return nil, errors.New("--host needs a HOST")
			}
			action, host = "host", args[i+1]
			i++
		case strings.HasPrefix(a, "--host="):
			action, host = "host", strings.TrimPrefix(a, "--host=")
		case a == "-i" || a == "--inventory" || a == "--vault-id" || a == "--vault-password-file" || a == "--vault-pass-file":
			rest = append(rest, a)
			if i+1 < len(args) {
				rest = append(rest, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-"):
			rest = append(rest, a)
		default:
			positional = append(positional, a)
		}
	}
	switch action {
	case "":
		return nil, errors.New("No action selected, at least one of --host, --graph or --list needs to be specified")
	case "host":
		return append(append([]string{"host"}, rest...), host), nil
	case "graph":
		return append(append([]string{"graph"}, rest...), positional...), nil
	}
	return append([]string{"list"}, rest...), nil
}

// linksCommand is `tender links DIR`: the Ansible command names as
// symbolic links to this binary, so that tender is a drop-in for them.
func linksCommand() *cli.Command {
	return &cli.Command{
		Name:      "links",
		Usage:     "make ansible-playbook, ansible, ansible-inventory, ansible-vault, ansible-doc and ansible-config links to tender in DIR",
		ArgsUsage: "DIR",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "give one DIR")
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			if exe, err = filepath.EvalSymlinks(exe); err != nil {
				return err
			}
			return makeLinks(c, c.Args().First(), exe)
		},
	}
}

// makeLinks makes DIR/NAME -> exe for every drop-in name. A link that
// already points at exe is kept; any other file there is left alone and
// is an error.
func makeLinks(c *cli.Context, dir, exe string) error {
	var errs []error
	for _, name := range sortedKeys(dropIns) {
		p := filepath.Join(dir, name)
		if target, err := os.Readlink(p); err == nil {
			if same(target, dir, exe) {
				continue
			}
			errs = append(errs, fmt.Errorf("%s is a link to %s, not to tender (%s): not replaced", p, target, exe))
			continue
		} else if _, err := os.Lstat(p); err == nil {
			errs = append(errs, fmt.Errorf("%s exists and is not a link to tender: not replaced", p))
			continue
		}
		if err := os.Symlink(exe, p); err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(c.App.Writer, "%s -> %s\n", p, exe)
	}
	return errors.Join(errs...)
}

// same reports whether link target (relative to dir) is exe.
func same(target, dir, exe string) bool {
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	if r, err := filepath.EvalSymlinks(target); err == nil {
		target = r
	}
	return target == exe
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
