package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/tender-sh/tender/agents/store"
)

// historyCommand is `tender history`: the runs tender play and tender
// run recorded, one run's results, and what changed between two runs.
func historyCmd() *cli.Command {
	return &cli.Command{
		Name:  "history",
		Usage: "past runs of tender play and tender run: list them, show one, compare two",
		Flags: []cli.Flag{stateFlag(), &cli.IntFlag{Name: "last", Value: 20, Usage: "how many runs to list"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
		Action: historyList,
		Subcommands: []*cli.Command{
			{Name: "show", Usage: "one run: each host's result of each task", ArgsUsage: "RUN",
				Flags: []cli.Flag{stateFlag(), &cli.BoolFlag{Name: "json", Usage: "print JSON"}}, Action: historyShow},
			{Name: "diff", Usage: "what differs between two runs: each task and host whose result is not the same", ArgsUsage: "RUN RUN",
				Flags: []cli.Flag{stateFlag()}, Action: historyDiff},
		},
	}
}

func historyList(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageError(c, "tender history takes no argument: tender history show RUN, tender history diff RUN RUN")
	}
	st, err := openLedger(c, true)
	if err != nil {
		return err
	}
	defer st.Close()
	runs, err := st.Runs(c.Context, c.Int("last"))
	if err != nil {
		return err
	}
	out := c.App.Writer
	if c.Bool("json") {
		return writeJSON(out, runs)
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTARTED\tTOOK\tKIND\tSTATUS\tHOSTS\tPLAYBOOKS")
	for _, r := range runs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Started.Local().Format("2006-01-02 15:04:05"), runDuration(r), r.Kind, r.Status, recapSummary(r.Recap), r.Playbooks)
	}
	return tw.Flush()
}

// recapSummary is a recorded recap's counts over its hosts: "3 hosts:
// 2 changed, 1 failed".
func recapSummary(recap string) string {
	var m map[string]map[string]int
	if json.Unmarshal([]byte(recap), &m) != nil || len(m) == 0 {
		return "-"
	}
	n := map[string]int{}
	for _, s := range m {
		for _, k := range []string{"failed", "unreachable", "changed"} {
			if s[k] > 0 {
				n[k]++
			}
		}
	}
	parts := []string{fmt.Sprintf("%d", len(m))}
	for _, k := range []string{"changed", "failed", "unreachable"} {
		if n[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[k], k))
		}
	}
	return strings.Join(parts, ", ")
}

// historyRuns reads the n run IDs the command takes (usage says what it
// wants otherwise) and opens the ledger, read-only.
func historyRuns(c *cli.Context, n int, usage string) ([]int64, store.Ledger, error) {
	if c.NArg() != n {
		return nil, nil, usageError(c, usage)
	}
	ids := make([]int64, n)
	for i := range ids {
		var err error
		if ids[i], err = runArg(c, i); err != nil {
			return nil, nil, err
		}
	}
	st, err := openLedger(c, true)
	return ids, st, err
}

// runResults is st.RunResults, an unknown ID said as such.
func runResults(c *cli.Context, st store.Ledger, id int64) (store.Run, []store.RunResult, error) {
	r, rs, err := st.RunResults(c.Context, id)
	if errors.Is(err, store.ErrNoRun) {
		return r, rs, &exitError{code: 1, err: fmt.Errorf("run %d is not in the history", id)}
	}
	return r, rs, err
}

// runArg reads a run ID argument.
func runArg(c *cli.Context, i int) (int64, error) {
	id, err := strconv.ParseInt(c.Args().Get(i), 10, 64)
	if err != nil || id <= 0 {
		return 0, usageError(c, fmt.Sprintf("%q: want a run number, as tender history lists them", c.Args().Get(i)))
	}
	return id, nil
}

func historyShow(c *cli.Context) error {
	ids, st, err := historyRuns(c, 1, "name one run: tender history show RUN")
	if err != nil {
		return err
	}
	defer st.Close()
	r, rs, err := runResults(c, st, ids[0])
	if err != nil {
		return err
	}
	out := c.App.Writer
	if c.Bool("json") {
		return writeJSON(out, struct {
			Run     store.Run
			Results []store.RunResult
		}{r, rs})
	}
	fmt.Fprintf(out, "run %d: %s, %s (%s) by %s on %s\n%s\n", r.ID, r.Status, r.Started.Local().Format("2006-01-02 15:04:05"), runDuration(r), r.Login, r.Controller, r.Command)
	play, task := "", ""
	seen := map[string]bool{} // the hosts of the task shown last
	for _, x := range rs {
		if x.Play != play {
			play, task = x.Play, ""
			fmt.Fprintf(out, "\nPLAY [%s]\n", x.Play)
		}
		// A host met again is the next task of the same name.
		if x.Task != task || seen[x.Host] {
			task, seen = x.Task, map[string]bool{}
			fmt.Fprintf(out, "  TASK [%s]\n", x.Task)
		}
		seen[x.Host] = true
		line := "    " + x.Status + ": " + x.Host
		if x.Msg != "" && (x.Status == "failed" || x.Status == "unreachable" || x.Status == "ignored") {
			line += ": " + x.Msg
		}
		fmt.Fprintln(out, line)
	}
	return nil
}

func historyDiff(c *cli.Context) error {
	ids, st, err := historyRuns(c, 2, "name two runs: tender history diff RUN RUN")
	if err != nil {
		return err
	}
	defer st.Close()
	a, b := ids[0], ids[1]
	results := func(id int64) (map[string]string, []string, error) {
		_, rs, err := runResults(c, st, id)
		// Tasks of the same name are told apart by their order: the
		// n-th result of a play, task and host in one run is compared
		// with the n-th in the other.
		m := map[string]string{}
		n := map[string]int{}
		var order []string
		for _, x := range rs {
			k := x.Play + "\x00" + x.Task + "\x00" + x.Host
			n[k]++
			k += "\x00" + strconv.Itoa(n[k])
			order = append(order, k)
			m[k] = x.Status
		}
		return m, order, err
	}
	ma, oa, err := results(a)
	if err != nil {
		return err
	}
	mb, ob, err := results(b)
	if err != nil {
		return err
	}
	keys := oa
	for _, k := range ob {
		if _, ok := ma[k]; !ok {
			keys = append(keys, k)
		}
	}
	out := c.App.Writer
	n := 0
	for _, k := range keys {
		sa, sb := or(ma[k], "-"), or(mb[k], "-")
		if sa == sb {
			continue
		}
		n++
		p := strings.SplitN(k, "\x00", 4)
		fmt.Fprintf(out, "%s | %s | %s: %s -> %s\n", p[0], p[1], p[2], sa, sb)
	}
	if n == 0 {
		fmt.Fprintf(out, "runs %d and %d: every task has the same result on every host\n", a, b)
	}
	return nil
}

// or is a, or b when a is empty.
func or(a, b string) string {
	if a == "" {
		return b
	}
	return a
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
