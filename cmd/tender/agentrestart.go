package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/agents"
)

// agentRestartCommand is `tender agent restart`: the bundle's service
// restarted on each host named, then its port or health checked.
func agentRestartCommand() *cli.Command {
	return &cli.Command{
		Name:      "restart",
		Usage:     "restart the agent's service (the manifest's service:) on the hosts named, and wait for it to answer",
		ArgsUsage: "HOST...",
		Flags: append(agentFlags(true),
			&cli.DurationFlag{Name: "wait", Value: agents.DefaultRestartWait, Usage: "how long to wait for each restarted agent to answer"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object per host"}),
		Action: agentRestart,
	}
}

func agentRestart(c *cli.Context) error {
	if c.NArg() == 0 {
		return usageError(c, "name the hosts to restart the agent on")
	}
	if c.Duration("wait") <= 0 {
		return usageError(c, "--wait must be above 0")
	}
	d, st, err := newDeployer(c, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signalContext(c)
	defer stop()
	out := c.App.Writer
	down := 0
	for _, host := range c.Args().Slice() {
		res, err := d.Restart(ctx, host)
		if err != nil {
			return err
		}
		if !res.Up {
			down++
		}
		if c.Bool("json") {
			b, _ := json.Marshal(struct {
				agents.RestartResult
				Duration float64 `json:"duration_seconds"`
			}{res, res.Duration.Seconds()})
			fmt.Fprintln(out, string(b))
			continue
		}
		if res.Up {
			fmt.Fprintf(out, "%s: restarted, the agent answers (%s)\n", host, res.Duration.Round(time.Millisecond))
		} else {
			fmt.Fprintf(out, "%s: %s: %s\n", host, res.Code, res.Error)
		}
		if ctx.Err() != nil {
			break
		}
	}
	if down > 0 {
		return &exitError{code: 2, err: errors.New("the agent is not up on some hosts"), quiet: true}
	}
	return nil
}
