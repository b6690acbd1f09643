package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/agents"
	"github.com/tender-sh/tender/agents/store"
	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/transport/ssh"
)

func agentCommand() *cli.Command {
	return &cli.Command{
		Name:  "agent",
		Usage: "deploy an agent bundle across the inventory, only where needed",
		Subcommands: []*cli.Command{
			{
				Name:   "deploy",
				Usage:  "plan every host, then deploy the bundle in batches where needed",
				Flags:  append(agentFlags(true), deployFlags()...),
				Action: agentDeploy,
			},
			{
				Name:   "status",
				Usage:  "plan only: each host's state (in-sync, outdated, drifted, down, never deployed), nothing changed",
				Flags:  append(agentFlags(true), &cli.BoolFlag{Name: "json", Usage: "print the plan as JSON"}),
				Action: agentStatus,
			},
			{
				Name:  "history",
				Usage: "past rollouts and deployments from the ledger",
				Flags: []cli.Flag{stateFlag(),
					&cli.StringFlag{Name: "host", Usage: "only this host's deployments"},
					&cli.IntFlag{Name: "last", Value: 20, Usage: "how many rollouts and deployments to show"}},
				Action: agentHistory,
			},
			agentRestartCommand(),
			{
				Name:      "forget",
				Usage:     "drop everything the ledger holds about a decommissioned host",
				ArgsUsage: "HOST",
				Flags:     []cli.Flag{stateFlag()},
				Action:    agentForget,
			},
		},
	}
}

func stateFlag() cli.Flag {
	return &cli.StringFlag{Name: "state", EnvVars: []string{"TENDER_STATE"},
		Usage: "the ledger: a SQLite file (default $XDG_STATE_HOME/tender/ledger.db), or postgres://user@host/db for one shared by several controllers"}
}

// agentFlags are the flags that plan: inventory, bundle, ledger, limit,
// the connection flags of `tender play` and its vault flags.
func agentFlags(bundle bool) []cli.Flag {
	fs := []cli.Flag{inventoryFlag(false), stateFlag(),
		&cli.StringFlag{Name: "bundle", Required: bundle, Usage: "the agent bundle directory (holding agent.yaml)"},
		&cli.StringFlag{Name: "limit", Aliases: []string{"l"}, Usage: "further limit the hosts to a pattern"},
		&cli.StringFlag{Name: "hosts", Value: "all", Usage: "the inventory pattern of the hosts that run the agent"},
		sandboxFlag(),
	}
	for _, f := range runFlags() {
		if slices.Contains([]string{"forks", "extra-vars", "user", "private-key", "known-hosts", "host-key-checking", "ssh-config"}, f.Names()[0]) {
			fs = append(fs, f)
		}
	}
	return append(fs, vaultFlags()...)
}

func deployFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "batch", Value: fmt.Sprint(agents.DefaultBatch), Usage: "hosts per wave: N or N% of the hosts"},
		&cli.StringFlag{Name: "max-fail", Usage: "stop scheduling hosts once more than N (or N%) failed"},
		&cli.BoolFlag{Name: "force", Usage: "redeploy every host, whatever the ledger says"},
		&cli.IntFlag{Name: "canary", Usage: "deploy N hosts first, alone; if one fails, stop there"},
		&cli.DurationFlag{Name: "pause", Usage: "wait this long between waves (e.g. 30s)"},
		&cli.BoolFlag{Name: "keep-going", Usage: "go on with the next waves after one in which a host failed (the default stops there, unless --max-fail)"},
		&cli.BoolFlag{Name: "json", Usage: "print the rollout's progress as JSON events, one per line (docs/JSON.md)"},
		&cli.DurationFlag{Name: "lease-ttl", Value: agents.DefaultLeaseTTL, Usage: "how long a host's lease lasts unless renewed: how soon another controller may take over the hosts of one that died on another machine"},
	}, historyFlags()[1:]...) // the ledger's --state is agentFlags'
}

// openLedger opens --state (or the default path): a postgres:// URL or a
// SQLite file; readOnly for the commands that only look (status,
// history), which create, migrate and change nothing. Its errors never
// show a URL's password.
func openLedger(c *cli.Context, readOnly bool) (store.Ledger, error) {
	state := c.String("state")
	if state == "" {
		var err error
		if state, err = store.DefaultPath(); err != nil {
			return nil, err
		}
	}
	return store.OpenState(c.Context, state, readOnly)
}

// newDeployer loads everything a deploy or status needs, in an order that
// reports bad input before any host is touched: flags, bundle, ledger,
// inventory.
func newDeployer(c *cli.Context, events func(agents.Event)) (*agents.Deployer, store.Ledger, error) {
	opts := agents.Options{Modules: moduleRegistry(), Hosts: c.String("hosts"),
		Limit: c.String("limit"), Force: c.Bool("force"), Events: events}
	if c.IsSet("forks") {
		opts.Forks = c.Int("forks")
	}
	var err error
	if c.Command.Name == "deploy" {
		if opts.Batch, err = agents.ParseCount(c.String("batch")); err != nil || opts.Batch.N == 0 {
			return nil, nil, usageError(c, fmt.Sprintf("--batch %s: want N or N%% above 0", c.String("batch")))
		}
		if c.IsSet("max-fail") {
			mf, err := agents.ParseCount(c.String("max-fail"))
			if err != nil {
				return nil, nil, usageError(c, "--max-fail "+err.Error())
			}
			opts.MaxFail = &mf
		}
		if c.Int("canary") < 0 || c.Duration("pause") < 0 {
			return nil, nil, usageError(c, "--canary and --pause cannot be negative")
		}
		opts.Canary, opts.Pause = c.Int("canary"), c.Duration("pause")
		// Renewed every third of it, a lease shorter than a few seconds
		// would be lost to one slow ledger write.
		if opts.LeaseTTL = c.Duration("lease-ttl"); opts.LeaseTTL < 3*time.Second {
			return nil, nil, usageError(c, fmt.Sprintf("--lease-ttl %v: want 3s or more", opts.LeaseTTL))
		}
		// An upgrader stops after a wave that failed, unless told how
		// many failures to go on with (--max-fail) or to go on anyway.
		opts.StopOnFailedBatch = !c.IsSet("max-fail") && !c.Bool("keep-going")
	}
	// The vault secrets come as `tender play` takes them: the flags and
	// ansible.cfg's vault settings (vault_password_file,
	// vault_identity_list, ...). They open the inventory's, the -e
	// vars', the bundle's and its playbook's vaulted data, and whatever
	// they open stays out of the ledger.
	cfg, err := loadConfig(c)
	if err != nil {
		return nil, nil, err
	}
	if opts.Vault, err = vaultKeyring(c, cfg); err != nil {
		return nil, nil, err
	}
	if opts.ExtraVars, err = extraVars(c.StringSlice("extra-vars"), vaultDecrypt(c)); err != nil {
		return nil, nil, &exitError{code: 5, err: err}
	}
	// Agents are tender's own: otherwise, Ansible's settings (ANSIBLE_*,
	// ansible.cfg) do not change how they connect.
	dialer, err := sshDialer(c, config.Defaults())
	if err != nil {
		return nil, nil, &exitError{code: 5, err: err}
	}
	if dialer.HostKeys == ssh.HostKeyInsecure {
		printWarning(c.App.ErrWriter, "host keys are not checked (--host-key-checking=insecure)")
	}
	opts.Connections = connections(dialer)
	if opts.Sandbox, err = sandboxPolicy(c); err != nil {
		return nil, nil, err
	}
	b, err := agents.LoadBundle(c.String("bundle"), agents.LoadOptions{Modules: opts.Modules, Sandbox: opts.Sandbox, Vault: opts.Vault})
	if err != nil {
		return nil, nil, &exitError{code: 4, err: err}
	}
	st, err := openLedger(c, c.Command.Name == "status")
	if err != nil {
		return nil, nil, err
	}
	inv, err := loadInventory(c, nil)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	if c.Command.Name == "restart" {
		opts.RestartWait = c.Duration("wait")
	}
	d, err := agents.New(st, b, inv, opts)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return d, st, nil
}

// signalContext is the context of an agent command: the first interrupt
// cancels it (a deploy stops at its next step, recording nothing it did
// not finish), a second or a SIGTERM also ends the process soon after.
func signalContext(c *cli.Context) (context.Context, context.CancelFunc) {
	ctx, drain, stop := interrupts(c.Context, c.App.ErrWriter, "stopping at the next step; nothing unfinished is recorded.")
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-drain:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(); stop() }
}

func agentDeploy(c *cli.Context) error {
	out := c.App.Writer
	start := time.Now()
	show := func(e agents.Event) { printAgentEvent(out, e) }
	if c.Bool("json") {
		show = agentJSONEvents(out)
	}
	var rec *recorder
	d, st, err := newDeployer(c, func(e agents.Event) {
		show(e)
		if e.Kind == agents.HostTask && e.Task != nil {
			rec.event(*e.Task) // blanked as the ledger's text is
		}
	})
	if err != nil {
		return err
	}
	defer st.Close()
	rec = startHistory(c, "agent", d.Bundle().Name+" "+d.Bundle().Version, func(msg string) { printWarning(c.App.ErrWriter, msg) })
	ctx, stop := signalContext(c)
	defer stop()
	rep, err := d.Deploy(ctx)
	rec.end(rolloutStatus(rep, err), rolloutCounts(rep))
	if err != nil {
		return err
	}
	if c.Bool("json") {
		// The finished event carries the report.
		if rep.Failed() {
			return &exitError{code: 2, err: errors.New("some hosts failed"), quiet: true}
		}
		return nil
	}
	fmt.Fprintf(out, "RECAP %s %s: %d deployed, %d failed, %d up to date, %d busy, %d not attempted (%s)\n",
		d.Bundle().Name, d.Bundle().Version, rep.Count(agents.HostDeployed), rep.Count(agents.HostFailed),
		rep.Count(agents.HostSkipped), rep.Count(agents.HostBusy), rep.Count(agents.HostNotAttempted),
		time.Since(start).Round(time.Millisecond))
	if rep.Failed() {
		return &exitError{code: 2, err: errors.New("some hosts failed"), quiet: true}
	}
	return nil
}

// printAgentEvent prints a rollout's progress: the plan's summary first,
// then one line per host as it ends.
func printAgentEvent(w io.Writer, e agents.Event) {
	switch e.Kind {
	case agents.Planned:
		fmt.Fprintln(w, e.Summary)
	case agents.WaveStarted:
		fmt.Fprintf(w, "wave %d: %d hosts\n", e.Wave, e.Hosts)
	case agents.Pausing:
		fmt.Fprintf(w, "pausing %s before the next wave\n", e.Pause)
	case agents.HostFinished:
		r := e.Result
		switch r.Outcome {
		case agents.HostSkipped:
			fmt.Fprintf(w, "%s: up to date\n", r.Host)
		case agents.HostDeployed:
			fmt.Fprintf(w, "%s: deployed (%s: %s) in %s\n", r.Host, r.Decision.Action, r.Decision.Reason, r.Duration.Round(time.Millisecond))
		default:
			fmt.Fprintf(w, "%s: %s (%s: %s): %s\n", r.Host, r.Outcome, r.Decision.Action, r.Decision.Reason, r.Error)
		}
	}
}

func agentStatus(c *cli.Context) error {
	d, st, err := newDeployer(c, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signalContext(c)
	defer stop()
	decs, err := d.Plan(ctx)
	if err != nil {
		return err
	}
	out := c.App.Writer
	if c.Bool("json") {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"agent": d.Bundle().Name, "version": d.Bundle().Version,
			"summary": agents.Summary(decs), "hosts": decs})
	}
	fmt.Fprintln(out, agents.Summary(decs))
	for _, dec := range decs {
		fmt.Fprintf(out, "%-20s %-15s %s\n", dec.Host, dec.Status, dec.Reason)
	}
	return nil
}

func agentHistory(c *cli.Context) error {
	st, err := openLedger(c, true)
	if err != nil {
		return err
	}
	defer st.Close()
	rs, ds, err := st.History(c.Context, c.String("host"), c.Int("last"))
	if err != nil {
		return err
	}
	out := c.App.Writer
	const stamp = "2006-01-02 15:04:05"
	if c.String("host") == "" {
		waves, err := rolloutWaves(c.Context, st, rs)
		if err != nil {
			return err
		}
		fmt.Fprintln(out, "ROLLOUTS")
		for _, r := range rs {
			fmt.Fprintf(out, "#%d %s %s %s %s by %s: %s\n", r.ID, r.Started.Format(stamp), r.Agent, r.Version, r.Outcome, r.Owner, r.Summary)
			for _, w := range waves[r.ID] {
				fmt.Fprintf(out, "  %s\n", waveText(w))
			}
		}
	}
	fmt.Fprintln(out, "DEPLOYMENTS")
	for _, d := range ds {
		took := ""
		if !d.Finished.IsZero() {
			took = " in " + d.Finished.Sub(d.Started).Round(time.Millisecond).String()
		}
		in := "no rollout"
		if d.Rollout != 0 {
			in = fmt.Sprintf("rollout #%d", d.Rollout)
		}
		if d.Wave > 0 {
			in += fmt.Sprintf(" wave %d", d.Wave)
		}
		fmt.Fprintf(out, "#%d %s %s %s %s: %s%s (%s)", d.ID, in, d.Started.Format(stamp), d.Host, d.Agent, d.Outcome, took, d.Reason)
		if d.Error != "" {
			fmt.Fprintf(out, ": %s", d.Error)
		}
		fmt.Fprintln(out)
	}
	return nil
}

func agentForget(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageError(c, "give one HOST")
	}
	st, err := openLedger(c, false)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Forget(c.Context, c.Args().First()); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "forgot %s\n", c.Args().First())
	return nil
}
