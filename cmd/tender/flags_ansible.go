package main

import "github.com/urfave/cli/v2"

// ansibleRunFlags are ansible-playbook's connection, privilege escalation
// and run options, with its names, short forms and value syntax; what each
// does is in applySettings and docs/COMPATIBILITY.md.
func ansibleRunFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "connection", Aliases: []string{"c"}, Usage: "connection type: ssh (smart, paramiko: the same) or local"},
		&cli.IntFlag{Name: "timeout", Aliases: []string{"T"}, Usage: "seconds to wait for a connection (DEFAULT_TIMEOUT, 10)"},
		&cli.StringFlag{Name: "ssh-common-args", Usage: "ssh options for every host (-o Key=Value, -J, -p, -l, -i)"},
		&cli.StringFlag{Name: "ssh-extra-args", Usage: "ssh options for every host, after --ssh-common-args"},
		&cli.StringFlag{Name: "sftp-extra-args", Usage: "refused: tender speaks SFTP itself, it runs no sftp program"},
		&cli.StringFlag{Name: "scp-extra-args", Usage: "refused: tender speaks SFTP itself, it runs no scp program"},
		&cli.BoolFlag{Name: "ask-pass", Aliases: []string{"k"}, Usage: "ask for the SSH login password"},
		&cli.StringFlag{Name: "connection-password-file", Aliases: []string{"conn-pass-file"}, Usage: "read the SSH login password from a file (or a script's output)"},
		&cli.BoolFlag{Name: "force-handlers", Usage: "run notified handlers on hosts that failed too"},
		&cli.BoolFlag{Name: "flush-cache", Usage: "clear the fact cache of every host in the inventory before the first play"},
		&cli.BoolFlag{Name: "become", Aliases: []string{"b"}, Usage: "run tasks with privilege escalation (become)"},
		&cli.StringFlag{Name: "become-method", Usage: "privilege escalation method: sudo (default), su or doas"},
		&cli.StringFlag{Name: "become-user", Usage: "the user to become (default root)"},
		&cli.BoolFlag{Name: "ask-become-pass", Aliases: []string{"K"}, Usage: "ask for the privilege escalation password"},
		&cli.StringFlag{Name: "become-password-file", Aliases: []string{"become-pass-file"}, Usage: "read the privilege escalation password from a file (or a script's output)"},
		&cli.StringSliceFlag{Name: "module-path", Aliases: []string{"M"}, Usage: "directories (colon-separated, repeatable) of modules that ship with the content"},
	}
}
