package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
)

// stdin is where --step's answers are read from (tests replace it).
var stdin io.Reader = os.Stdin

// errStepEnded is --step's question left unanswered (end of input): the
// run ends as a failed one, as ansible-playbook's does.
var errStepEnded = errors.New("--step: no answer (end of input)")

// stepPrompt is Runner.Step for --step: it asks on out, as
// ansible-playbook does, and reads the answer from in: y or yes runs the
// task, c or continue runs it and stops asking for the rest of the play,
// anything else skips it. The question is repeated as a banner.
func stepPrompt(out io.Writer, in io.Reader) func(ctx context.Context, task string) (provision.StepAnswer, error) {
	r := bufio.NewReader(in)
	return func(ctx context.Context, task string) (provision.StepAnswer, error) {
		msg := "Perform task: TASK: " + task + " (N)o/(y)es/(c)ontinue: "
		fmt.Fprint(out, msg)
		type line struct {
			s   string
			err error
		}
		got := make(chan line, 1)
		go func() {
			s, err := r.ReadString('\n')
			got <- line{s, err}
		}()
		var l line
		select {
		case l = <-got:
		case <-ctx.Done():
			return provision.StepNo, ctx.Err()
		}
		if l.err != nil && l.s == "" {
			return provision.StepNo, errStepEnded
		}
		fmt.Fprintf(out, "\n%s\n", report.Banner(strings.TrimSpace(msg)))
		switch strings.ToLower(strings.TrimSpace(l.s)) {
		case "y", "yes":
			return provision.StepYes, nil
		case "c", "continue":
			return provision.StepContinue, nil
		}
		return provision.StepNo, nil
	}
}
