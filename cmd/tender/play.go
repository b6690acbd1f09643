package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
)

func playCommand() *cli.Command {
	return &cli.Command{
		Name: "play",
		// -vvvv and other combined single-letter flags, as ansible-playbook takes them.
		UseShortOptionHandling: true,
		Usage:                  "run playbooks on the inventory's hosts (as ansible-playbook)",
		ArgsUsage:              "PLAYBOOK [PLAYBOOK...]",
		Flags: append([]cli.Flag{
			inventoryFlag(false),
			&cli.BoolFlag{Name: "syntax-check", Usage: "parse the playbooks and everything they include; run nothing"},
			&cli.BoolFlag{Name: "list-tasks", Usage: "list the tasks each play would run"},
			&cli.BoolFlag{Name: "list-hosts", Usage: "list the hosts each play would run on"},
			&cli.BoolFlag{Name: "list-tags", Usage: "list the tags of each play's tasks"},
			&cli.StringFlag{Name: "limit", Aliases: []string{"l"}, Usage: "further limit the hosts to a pattern"},
			&cli.StringSliceFlag{Name: "tags", Aliases: []string{"t"}, Usage: "only tasks tagged with these (comma list, repeatable)"},
			&cli.StringSliceFlag{Name: "skip-tags", Usage: "skip tasks tagged with these (comma list, repeatable)"},
			&cli.StringFlag{Name: "start-at-task", Usage: "start at the first task with this name (a glob; \"role : name\" too)"},
			&cli.BoolFlag{Name: "step", Usage: "confirm each task before it runs"},
			&cli.StringFlag{Name: "hosts", Value: "all", Usage: "host pattern for a playbook that is a bare list of tasks"},
			sandboxFlag(),
		}, append(runFlags(), vaultFlags()...)...),
		Action: playAction,
	}
}

func playAction(c *cli.Context) error {
	if c.Bool("version") {
		_, err := fmt.Fprintf(c.App.Writer, "tender %s\n", version)
		return err
	}
	if c.NArg() == 0 {
		return argError(c, "give a PLAYBOOK")
	}
	listing := c.Bool("list-tasks") || c.Bool("list-hosts") || c.Bool("list-tags")
	running := !c.Bool("syntax-check") && !listing
	// Every playbook must be there before anything runs (exit 1, as
	// ansible-playbook).
	for _, path := range c.Args().Slice() {
		st, err := os.Stat(path)
		if err != nil {
			return &exitError{code: 1, err: fmt.Errorf("the playbook: %s could not be found", path)}
		}
		if !st.Mode().IsRegular() && st.Mode()&os.ModeNamedPipe == 0 {
			return &exitError{code: 1, err: fmt.Errorf("the playbook: %s does not appear to be a file", path)}
		}
	}
	cfg, err := loadConfig(c)
	if err != nil {
		return err
	}
	if _, err := vaultKeyring(c, cfg); err != nil {
		return err
	}
	// A playbook using a module tender does not run fails to load, before
	// any host is touched.
	modules := moduleRegistry()
	extra, err := extraVars(c.StringSlice("extra-vars"), vaultDecrypt(c))
	if err != nil {
		return err
	}
	policy, err := sandboxPolicy(c)
	if err != nil {
		return err
	}
	rolesPath, modulePath, err := contentPaths(c, cfg)
	if err != nil {
		return err
	}
	dupKeys, err := duplicateKeys(cfg)
	if err != nil {
		return err
	}
	collPaths, scanSys, err := collectionPaths(cfg)
	if err != nil {
		return err
	}
	plugPaths, err := pluginPaths(cfg)
	if err != nil {
		return err
	}
	var pbs []*playbooks.Playbook
	for _, path := range c.Args().Slice() {
		pb, err := playbooks.Load(path, playbooks.Options{Hosts: c.String("hosts"), Modules: modules, Vars: extra, Sandbox: policy,
			Decrypt: vaultDecrypt(c), RolesPath: rolesPath, ModulePath: modulePath, DuplicateKeys: dupKeys,
			CollectionsPaths: collPaths, ScanSysPath: scanSys, PluginPaths: plugPaths})
		if err != nil {
			return loadFailure(err)
		}
		// What Ansible finds only when the task runs: said now, failing
		// then on the hosts that reach it.
		for _, w := range pb.Warnings {
			printWarning(c.App.ErrWriter, fmt.Sprint(w))
		}
		pbs = append(pbs, pb)
	}
	inv, err := loadInventory(c, cfg)
	if err != nil {
		return err
	}
	if err := checkLimit(c, inv, cfg); err != nil {
		return err
	}
	// What Ansible warns about as it reads the playbook, which it does
	// after the inventory.
	for _, pb := range pbs {
		for _, n := range pb.Notices {
			printWarning(c.App.ErrWriter, n)
		}
	}
	if running {
		return runPlaybooks(c, inv, pbs, policy, cfg)
	}
	out := c.App.Writer
	if c.Bool("syntax-check") {
		for _, pb := range pbs {
			fmt.Fprintf(out, "\nplaybook: %s\n", pb.Path)
		}
		return nil
	}
	if !c.Bool("list-hosts") {
		inv = nil
	}
	filter := playbooks.TagFilter{Only: splitList(c.StringSlice("tags")), Skip: splitList(c.StringSlice("skip-tags"))}
	for _, pb := range pbs {
		if err := listPlaybook(out, pb, inv, c, filter); err != nil {
			return err
		}
	}
	return nil
}

// checkLimit fails, as ansible-playbook does before it runs anything, when
// the inventory has hosts and --limit leaves none of them.
func checkLimit(c *cli.Context, inv *inventory.Inventory, cfg *config.Config) error {
	all, err := inv.Hosts("all")
	if len(all) == 0 {
		// As ansible-playbook, unless LOCALHOST_WARNING is off.
		if warn, err := cfg.Setting("LOCALHOST_WARNING"); err != nil || warn != false {
			printWarning(c.App.ErrWriter, "provided hosts list is empty, only localhost is available. Note that the implicit localhost does not match 'all'")
		}
	}
	if err != nil || len(all) == 0 {
		return nil
	}
	limit := c.String("limit")
	if limit == "" {
		return nil
	}
	if hosts, err := inv.Limit(all, limit); err == nil && len(hosts) > 0 {
		return nil
	}
	printWarning(c.App.ErrWriter, fmt.Sprintf("Could not match supplied host pattern, ignoring: %s", limit))
	return &exitError{code: 1, err: errors.New("Specified inventory, host pattern and/or --limit leaves us with no hosts to target.")}
}

// listPlaybook prints one playbook in the layout of ansible-playbook
// --list-hosts/--list-tasks/--list-tags. Hosts are listed in inventory
// order; ansible lists them in the order of a Python set, which varies
// from run to run.
func listPlaybook(out io.Writer, pb *playbooks.Playbook, inv *inventory.Inventory, c *cli.Context, filter playbooks.TagFilter) error {
	fmt.Fprintf(out, "\nplaybook: %s\n", pb.Path)
	for i, p := range pb.Plays {
		patterns := strings.Split(p.Hosts, ",")
		name := p.Name
		if name == "" {
			name = p.Hosts
		}
		fmt.Fprintf(out, "\n  play #%d (%s): %s\tTAGS: [%s]\n", i+1, p.Hosts, name, strings.Join(p.Tags, ","))
		if inv != nil {
			hosts, err := playHosts(inv, patterns, c.String("limit"))
			if err != nil {
				return fmt.Errorf("play #%d (%s) at %s: %w", i+1, name, p.Pos, err)
			}
			fmt.Fprintf(out, "    pattern: %s\n    hosts (%d):\n", pyList(patterns), len(hosts))
			for _, h := range hosts {
				fmt.Fprintf(out, "      %s\n", h.Name)
			}
		}
		var b strings.Builder
		if c.Bool("list-tasks") {
			b.WriteString("    tasks:\n")
		}
		all := map[string]bool{}
		for _, t := range p.ListTasks() {
			if !filter.Selects(t.Tags) {
				continue
			}
			for _, tag := range t.Tags {
				all[tag] = true
			}
			if c.Bool("list-tasks") {
				fmt.Fprintf(&b, "      %s\tTAGS: [%s]\n", t.Name, strings.Join(t.Tags, ", "))
			}
		}
		if c.Bool("list-tags") {
			tags := make([]string, 0, len(all))
			for t := range all {
				tags = append(tags, t)
			}
			sort.Strings(tags)
			fmt.Fprintf(&b, "      TASK TAGS: [%s]\n", strings.Join(tags, ", "))
		}
		// ansible's display drops the message's final newline and prints
		// nothing for an empty one.
		if msg := strings.TrimSuffix(b.String(), "\n"); msg != "" {
			fmt.Fprintln(out, msg)
		}
	}
	return nil
}

// playHosts selects a play's hosts, then applies --limit. A play whose
// pattern matches nothing lists no hosts, as ansible does; a --limit that
// matches nothing at all is an error.
func playHosts(inv *inventory.Inventory, patterns []string, limit string) ([]*inventory.Host, error) {
	hosts, err := inv.Match(patterns)
	if err != nil {
		if _, ok := err.(*inventory.NoMatchError); ok {
			return nil, nil
		}
		return nil, err
	}
	if limit == "" {
		return hosts, nil
	}
	return inv.Limit(hosts, limit)
}

// splitList flattens repeatable comma-list flags: -t a,b -t c → [a b c].
func splitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// pyList prints a list of strings as Python's repr does: ['a', 'b'].
func pyList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// loadFailure is a playbook that does not load, as ansible-playbook
// reports it (exit 4): each error, then where it is and the offending
// line with a caret under it.
func loadFailure(err error) error {
	var list playbooks.ErrorList
	if !errors.As(err, &list) {
		return &exitError{code: 4, err: err}
	}
	var b strings.Builder
	for i, e := range list {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
		if e.Pos.Line > 0 {
			b.WriteString(strings.TrimRight(e.Pos.Quote(), "\n"))
		}
	}
	return &exitError{code: 4, err: errors.New(b.String())}
}
