package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
)

// junitEvents passes events on to next and, with --junit FILE, to a JUnit
// report written to FILE when the run ends (a failure to write it is an
// error on stderr; the run's exit status stays the run's).
func junitEvents(c *cli.Context, next func(provision.Event)) func(provision.Event) {
	file := c.String("junit")
	if file == "" {
		return next
	}
	var buf bytes.Buffer
	junit := report.JUnit(&buf)
	return func(e provision.Event) {
		junit(e)
		if e.Kind == provision.RunEnd {
			if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
				fmt.Fprintf(c.App.ErrWriter, "ERROR: --junit: %v\n", err)
			}
		}
		next(e)
	}
}
