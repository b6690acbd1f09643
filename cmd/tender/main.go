// Command tender runs Ansible-style playbooks over SSH, agentless and
// without Python on the hosts. It is the only place that calls os.Exit.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/vault"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "dev"

// exitError carries a process exit code out of a command.
type exitError struct {
	code  int
	err   error
	quiet bool // the output already said it all (a recap with failures)
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:            "tender",
		Usage:           "agentless provisioning over SSH with Ansible-style playbooks",
		Version:         version,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		// tender decides exit codes in run; the library must never exit.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands: []*cli.Command{
			versionCommand(),
			inventoryCommand(),
			playCommand(),
			adhocCommand(),
			agentCommand(),
			historyCmd(),
			serveCommand(),
			docCommand(),
			vaultCommand(),
			linksCommand(),
			configCommand(),
		},
		// -e '{"a": 1, "b": 2}', -e a=x,y and -i web1,web2, are one value
		// each, as ansible-playbook reads them; lists of tags are split
		// where they are read (splitList).
		DisableSliceFlagSeparator: true,
	}
	argparseErrors(app.Commands)
	return app
}

// argparseErrors makes a command line that does not parse (an unknown
// option, a value of the wrong type) exit 2 with the error and a pointer to
// the help on stderr, as ansible-playbook's argument parser does, rather
// than print the whole help on stdout.
func argparseErrors(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error {
			return argError(c, err.Error())
		}
		argparseErrors(cmd.Subcommands)
	}
}

// argError is a command line that does not parse: exit 2, as argparse.
func argError(c *cli.Context, msg string) error {
	name := c.App.Name
	if c.Command != nil && c.Command.Name != "" {
		name += " " + c.Command.FullName()
	}
	return &exitError{code: 2, err: fmt.Errorf("%s: %s (see %s --help)", name, msg, name)}
}

// run executes the app and returns the process exit code: 0 on success,
// the code an exitError carries, 1 for any other error.
func run(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	// The command line as given, for the run history.
	app.Metadata = map[string]any{"argv": args}
	args, err := dropIn(app, args)
	if err == nil {
		err = app.Run(interspersed(app, args))
	}
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.quiet {
		return ee.code
	}
	fmt.Fprintf(stderr, "ERROR: %s\n", errorText(app, err))
	if ee != nil {
		return ee.code
	}
	return 1
}

// errorText is err's message with what the command decrypted blanked by
// its keyring's censor: an error may quote a line of a vaulted file.
func errorText(app *cli.App, err error) string {
	msg := err.Error()
	if k, _ := app.Metadata[vaultKey].(*vault.Keyring); k != nil && k.Censor != nil {
		msg = k.Censor.String(msg)
	}
	return msg
}

func main() {
	tuneGC()
	stop := startProfiles(os.Stderr)
	code := run(os.Args, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
