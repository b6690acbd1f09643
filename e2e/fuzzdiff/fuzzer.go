package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// fuzzer runs cases one after another and reports each new kind of
// divergence once, minimised.
type fuzzer struct {
	r         *Runner
	known     []Known
	out       string
	budget    int
	ran       int
	diverged  int
	knownHits int
	classes   map[string]int // kind of divergence → its report number
}

// one runs c; on a divergence of a kind not seen before it minimises it
// and writes the report.
func (f *fuzzer) one(ctx context.Context, c *Case) error {
	a, t, err := f.r.Run(ctx, c, "current")
	if err != nil {
		return err
	}
	f.ran++
	diffs := Compare(a, t)
	if len(diffs) == 0 {
		return nil
	}
	f.diverged++
	unknown := Unknown(diffs, f.known)
	if len(unknown) == 0 {
		f.knownHits++
		return nil
	}
	class := Class(unknown)
	if n, seen := f.classes[class]; seen {
		fmt.Printf("seed %d: diverges again like #%d (%s)\n", c.Seed, n, class)
		return nil
	}
	n := len(f.classes) + 1
	f.classes[class] = n
	fmt.Printf("seed %d: divergence #%d (%s): minimising\n", c.Seed, n, class)
	keep := func(m *Case) bool {
		a, t, err := f.r.Run(ctx, m, "minimise")
		if err != nil || ctx.Err() != nil {
			return false
		}
		d := Unknown(Compare(a, t), f.known)
		return len(d) > 0 && Class(d) == class
	}
	small := Minimise(c, keep, f.budget)
	a, t, err = f.r.Run(ctx, small, "minimal")
	if err != nil {
		return err
	}
	dir := filepath.Join(f.out, fmt.Sprintf("%03d", n))
	if err := writeReport(dir, c, small, a, t); err != nil {
		return err
	}
	fmt.Printf("  minimal case (%d → %d) in %s:\n", c.size(), small.size(), dir)
	for _, d := range Compare(a, t) {
		fmt.Println("   ", d)
	}
	fmt.Print(indent(small.Text(), "    | "))
	return nil
}

// writeReport writes the original and minimal cases, both tools' outputs
// on the minimal one, and the differences.
func writeReport(dir string, orig, small *Case, a, t *Side) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	files := map[string]string{
		"original.txt":   orig.Text(),
		"diffs.txt":      strings.Join(Compare(a, t), "\n") + "\n",
		"ansible.stdout": a.Stdout, "ansible.stderr": a.Stderr,
		"tender.stdout": t.Stdout, "tender.stderr": t.Stderr,
		"README": fmt.Sprintf("seed %d; run with: cd minimal && ansible-playbook -i inventory site.yml -e d=$PWD/work %s\n",
			orig.Seed, strings.Join(small.Args, " ")),
	}
	for name, text := range small.Render() {
		files[filepath.Join("minimal", name)] = text
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}
