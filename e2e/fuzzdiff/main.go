// Command fuzzdiff is a differential fuzzer: it generates small random
// playbooks from seeds, runs each with ansible-playbook and with tender on
// local-connection hosts, each tool in its own fresh work directory, and
// compares exit codes, recaps, every task's result on every host and the
// work directories' end states. A divergence that DIFFERENCES.md does not
// list is minimised and written, with both tools' outputs, below -out.
//
// Run it with `make fuzz-diff` (FUZZDIFFTIME bounds it, FUZZDIFFSEEDS picks
// the seeds).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fuzzdiff:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		dur     = flag.Duration("time", 10*time.Minute, "stop starting new cases after this long")
		seeds   = flag.String("seeds", "1-", "seeds to run: N, A-B or A- (A onwards)")
		out     = flag.String("out", "/tmp/fuzz-diff", "where runs and divergences are written")
		ansible = flag.String("ansible", "ansible-playbook", "the ansible-playbook command")
		tender  = flag.String("tender", "bin/tender play", "the tender command that runs a playbook")
		known   = flag.String("known", "e2e/fuzzdiff/DIFFERENCES.md", "the known differences")
		specs   = flag.String("specs", "tasks/builtin/testdata/specs/specs.json", "the recorded module specs")
		budget  = flag.Int("minimise", 80, "at most this many candidate runs to minimise one divergence")
		timeout = flag.Duration("timeout", 90*time.Second, "bound of one tool's run of one case")
		show    = flag.Bool("print", false, "print the cases of -seeds and exit, running nothing")
		roles   = flag.Bool("roles", false, "draw roles too: defaults, vars, handlers, templates, dependencies, include_role and import_role")
		layers  = flag.Bool("vars", false, "draw variables from every layer too: group_vars, host_vars, inventory groups, vars_files, task and block vars")
	)
	flag.Parse()
	from, to, err := parseSeeds(*seeds)
	if err != nil {
		return err
	}
	sp, err := LoadSpecs(*specs)
	if err != nil {
		return err
	}
	opts := Options{Roles: *roles, Vars: *layers}
	if *show {
		for s := from; s <= to && s < from+100; s++ {
			fmt.Printf("#### seed %d\n%s", s, GenerateWith(s, sp, opts).Text())
		}
		return nil
	}
	text, err := os.ReadFile(*known)
	if err != nil {
		return err
	}
	kn, err := ParseKnown(string(text))
	if err != nil {
		return err
	}
	tenderCmd := strings.Fields(*tender)
	if strings.Contains(tenderCmd[0], "/") {
		// A copy of the binary: a rebuild while the run goes on does not
		// change the tender under test halfway.
		bin, err := snapshot(tenderCmd[0], *out)
		if err != nil {
			return err
		}
		tenderCmd[0] = bin
	}
	r := &Runner{Ansible: strings.Fields(*ansible), Tender: tenderCmd, Root: filepath.Join(*out, "run"), Timeout: *timeout}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	f := &fuzzer{r: r, known: kn, out: *out, budget: *budget, classes: map[string]int{}}
	start := time.Now()
	deadline := start.Add(*dur)
	for s := from; s <= to && time.Now().Before(deadline) && ctx.Err() == nil; s++ {
		if err := f.one(ctx, GenerateWith(s, sp, opts)); err != nil {
			return err
		}
	}
	fmt.Printf("fuzzdiff: %d playbooks in %s, %d diverged (%d known), %d new kinds written below %s\n",
		f.ran, time.Since(start).Round(time.Second), f.diverged, f.knownHits, len(f.classes), *out)
	if len(f.classes) > 0 {
		return fmt.Errorf("%d kinds of divergence not in %s", len(f.classes), *known)
	}
	return nil
}

// parseSeeds reads "N", "A-B" or "A-".
func parseSeeds(s string) (int64, int64, error) {
	a, b, dash := strings.Cut(s, "-")
	from, err := strconv.ParseInt(a, 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("-seeds %q: %w", s, err)
	}
	if !dash {
		return from, from, nil
	}
	if b == "" {
		return from, 1<<62 - 1, nil
	}
	to, err := strconv.ParseInt(b, 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("-seeds %q: %w", s, err)
	}
	return from, to, nil
}

// snapshot copies the executable at path to dir/tender-under-test.
func snapshot(path, dir string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin, err := filepath.Abs(filepath.Join(dir, "tender-under-test"))
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(bin+".new", data, 0o755); err != nil {
		return "", err
	}
	return bin, os.Rename(bin+".new", bin)
}
