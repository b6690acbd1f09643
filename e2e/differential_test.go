//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// diffCase is one case of the differential suite: a directory under
// differential/cases with site.yml, paths and an optional case.yml
// (differential/README.md).
type diffCase struct {
	name       string
	dir        string
	Image      string   `yaml:"image"`       // fleet image kind (fresh); py by default
	CheckFirst bool     `yaml:"check_first"` // run 0 is --check --diff and must change nothing
	ExtraArgs  []string `yaml:"extra_args"`  // more arguments for both tools
	Setup      string   `yaml:"setup"`       // shell, as root on both hosts before the first run
	Runs       int      `yaml:"runs"`        // real runs; 2 by default
	// Galaxy are collection sources in the case (directories holding
	// galaxy.yml), built and installed with ansible-galaxy into a
	// collections path both tools get (ANSIBLE_COLLECTIONS_PATH).
	Galaxy []string `yaml:"galaxy"`
	// Env is more environment for both tools (ANSIBLE_STDOUT_CALLBACK…).
	Env map[string]string `yaml:"env"`
}

// knownDiff is one entry of differential/known-differences.yml: a
// difference between ansible-playbook and tender that is deliberate.
type knownDiff struct {
	Case   string `yaml:"case"`   // a case's name or "*"
	What   string `yaml:"what"`   // recap, output or state
	Match  string `yaml:"match"`  // a regexp matched against a differing line
	Reason string `yaml:"reason"` // why it is not a bug
	re     *regexp.Regexp
	used   int
}

// knownDiffs is the known-differences file, shared by parallel cases.
type knownDiffs struct {
	mu      sync.Mutex
	entries []*knownDiff
}

// allows reports whether an entry excuses line, a difference of kind what
// in case name, and counts the entries used.
func (k *knownDiffs) allows(name, what, line string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	ok := false
	for _, e := range k.entries {
		if (e.Case == "*" || e.Case == name) && e.What == what && e.re.MatchString(line) {
			e.used++
			ok = true
		}
	}
	return ok
}

// diffLine is one difference found in a case.
type diffLine struct{ what, line string }

// TestDifferential runs every case of differential/cases with
// ansible-playbook on one fresh host and with tender on another of the
// same image, and compares the recaps, every task's outcome and the two
// hosts' end states (differential/dump.sh); the last run must change
// nothing on both. Differences not listed in
// differential/known-differences.yml fail the case; when every case ran to
// its end, a listed difference that no case showed fails the test, so the
// list stays short. TENDER_DIFF_PARALLEL (3 by default) cases run at once.
func TestDifferential(t *testing.T) {
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Fatal("ansible-playbook is not installed (apt-get install ansible-core); .ci/run installs it")
	}
	cases := loadDiffCases(t, "differential/cases")
	known := loadKnownDiffs(t, "differential/known-differences.yml", cases)
	longestFirst(cases)
	par := 3
	if v := os.Getenv("TENDER_DIFF_PARALLEL"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			par = n
		}
	}
	start := time.Now()
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	var mu sync.Mutex
	finished := 0
	for _, c := range cases {
		c := c
		wg.Add(1)
		sem <- struct{}{} // taken here, so the cases start in their order
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t.Run(c.name, func(t *testing.T) {
				if runDiffCase(t, c, known) {
					mu.Lock()
					finished++
					mu.Unlock()
				}
			})
		}()
	}
	wg.Wait()
	t.Logf("%d of %d cases ran to their end in %v (%d at a time)", finished, len(cases), time.Since(start).Round(time.Second), par)
	if finished < len(cases) {
		return
	}
	for _, e := range known.entries {
		if e.used == 0 {
			t.Errorf("known-differences.yml: no case showed {case: %s, what: %s, match: %q}; remove it", e.Case, e.What, e.Match)
		}
	}
}

// loadDiffCases reads every case directory under dir.
func loadDiffCases(t *testing.T, dir string) []diffCase {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []diffCase
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		c := diffCase{name: e.Name(), dir: filepath.Join(dir, e.Name()), Image: "py", Runs: 2}
		if b, err := os.ReadFile(filepath.Join(c.dir, "case.yml")); err == nil {
			d := yaml.NewDecoder(bytes.NewReader(b))
			d.KnownFields(true)
			if err := d.Decode(&c); err != nil {
				t.Fatalf("%s/case.yml: %v", c.dir, err)
			}
		}
		for _, f := range []string{"site.yml", "paths"} {
			if _, err := os.Stat(filepath.Join(c.dir, f)); err != nil {
				t.Fatalf("case %s: %v", c.name, err)
			}
		}
		if _, ok := freshImages[c.Image]; !ok || c.Runs < 1 {
			t.Fatalf("case %s: image %q (want one of py, nopy, sys, rh, openrc), runs %d", c.name, c.Image, c.Runs)
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		t.Fatalf("no cases in %s", dir)
	}
	return cases
}

// longestFirst orders the cases by an estimate of how long each takes,
// longest first, so that the last cases to start are short ones and the
// run does not end waiting on one long case: the runs (a check run
// counts) times the size of the case's YAML, tripled on rh hosts, whose
// dnf spends seconds loading its metadata on every call. Ties keep the
// cases' names in order.
func longestFirst(cases []diffCase) {
	cost := map[string]int{}
	for _, c := range cases {
		size := 0
		filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")) {
				if fi, err := d.Info(); err == nil {
					size += int(fi.Size())
				}
			}
			return nil
		})
		runs := c.Runs
		if c.CheckFirst {
			runs++
		}
		cost[c.name] = runs * size
		if c.Image == "rh" {
			cost[c.name] *= 3
		}
	}
	sort.SliceStable(cases, func(i, j int) bool { return cost[cases[i].name] > cost[cases[j].name] })
}

// loadKnownDiffs reads and checks the known-differences file.
func loadKnownDiffs(t *testing.T, path string, cases []diffCase) *knownDiffs {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	k := &knownDiffs{}
	d := yaml.NewDecoder(bytes.NewReader(b))
	d.KnownFields(true)
	if err := d.Decode(&k.entries); err != nil && err.Error() != "EOF" {
		t.Fatalf("%s: %v", path, err)
	}
	names := map[string]bool{"*": true}
	for _, c := range cases {
		names[c.name] = true
	}
	for i, e := range k.entries {
		if e.re, err = regexp.Compile(e.Match); err != nil || e.Match == "" {
			t.Fatalf("%s: entry %d: match %q: %v", path, i+1, e.Match, err)
		}
		if !names[e.Case] || (e.What != "recap" && e.What != "output" && e.What != "state") || strings.TrimSpace(e.Reason) == "" {
			t.Fatalf("%s: entry %d: want case (a case or *), what (recap, output or state) and a reason: %+v", path, i+1, *e)
		}
	}
	return k
}

// runDiffCase runs one case on two fresh hosts and reports its
// differences; it returns true when the case ran to its end.
func runDiffCase(t *testing.T, c diffCase, known *knownDiffs) bool {
	start := time.Now()
	hosts := fl.fresh(t, c.Image, 2)
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", c.dir+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	packTarballs(t, dir)
	pb := filepath.Join(dir, "site.yml")
	paths, err := os.ReadFile(filepath.Join(c.dir, "paths"))
	if err != nil {
		t.Fatal(err)
	}
	sides := [2]*diffSide{newDiffSide(t, "ansible", hosts[0]), newDiffSide(t, "tender", hosts[1])}
	for k, v := range c.Env {
		for _, s := range sides {
			s.env = append(s.env, k+"="+v)
		}
	}
	if len(c.Galaxy) > 0 {
		installed := galaxyInstall(t, dir, c.Galaxy)
		for _, s := range sides {
			s.env = append(s.env, "ANSIBLE_COLLECTIONS_PATH="+installed)
		}
	}
	if c.Setup != "" {
		for _, s := range sides {
			fl.sh(t, s.h.name, c.Setup)
		}
	}
	var diffs []diffLine
	var outs []string // the runs' outputs, shown when they differ
	first := 1
	if c.CheckFirst {
		first = 0
	}
	var last [2]diffResult
	for run := first; run <= c.Runs; run++ {
		args := append([]string{}, c.ExtraArgs...)
		var before [2]string
		if run == 0 {
			args = append(args, "--check", "--diff")
			before = [2]string{sides[0].dump(t, paths), sides[1].dump(t, paths)}
		}
		res := playBoth(sides, pb, args)
		last = res
		t.Logf("run %d: ansible-playbook %v, tender %v (side by side); recap %v", run,
			res[0].took.Round(time.Millisecond), res[1].took.Round(time.Millisecond), res[1].recap)
		d := compareRuns(run, res, run == c.Runs)
		if len(d) > 0 {
			outs = append(outs, fmt.Sprintf("--- run %d, ansible-playbook (exit %d)\n%s\n--- run %d, tender (exit %d)\n%s",
				run, res[0].code, res[0].out, run, res[1].code, res[1].out))
		}
		diffs = append(diffs, d...)
		if run == 0 {
			for i, s := range sides {
				for _, l := range sortedDiff(before[i], s.dump(t, paths)) {
					diffs = append(diffs, diffLine{"state", fmt.Sprintf("check run changed the host (%s): %s", s.tool, l)})
				}
			}
		}
	}
	dumps := [2]string{sides[0].dump(t, paths), sides[1].dump(t, paths)}
	for _, l := range sortedDiff(dumps[0], dumps[1]) {
		diffs = append(diffs, diffLine{"state", l})
	}
	for _, l := range sortedDiff(treeListing(t, sides[0].fetch), treeListing(t, sides[1].fetch)) {
		diffs = append(diffs, diffLine{"state", "controller " + l})
	}
	var bad []string
	for _, d := range diffs {
		if !known.allows(c.name, d.what, d.line) {
			bad = append(bad, d.what+": "+d.line)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d differences not in known-differences.yml:\n%s\n%s\n%s", len(bad), strings.Join(bad, "\n"),
			strings.Join(outs, "\n"), contentDiffs(t, sides, bad))
	}
	if last[0].code != 0 || last[1].code != 0 {
		t.Errorf("the last run failed: ansible-playbook exit %d, tender exit %d\n--- ansible-playbook\n%s\n--- tender\n%s",
			last[0].code, last[1].code, last[0].out, last[1].out)
	}
	t.Logf("%v in all", time.Since(start).Round(time.Second))
	return true
}

// compareRuns returns how one run's recaps and task outcomes differ. The
// last run must change nothing on either side.
func compareRuns(run int, res [2]diffResult, last bool) []diffLine {
	var d []diffLine
	ra, rt := res[0].recap, res[1].recap
	if ra != rt || res[0].code != res[1].code {
		d = append(d, diffLine{"recap", fmt.Sprintf("run %d: ansible %s exit=%d; tender %s exit=%d", run,
			fmtRecap(ra), res[0].code, fmtRecap(rt), res[1].code)})
	}
	if last {
		for i, r := range []diffResult{res[0], res[1]} {
			if r.recap[1] != 0 {
				d = append(d, diffLine{"recap", fmt.Sprintf("run %d changed something again: %s %s", run, [2]string{"ansible", "tender"}[i], fmtRecap(r.recap))})
			}
		}
	}
	onlyA, onlyT := seqDiff(taskStatuses(res[0].out), taskStatuses(res[1].out))
	for _, l := range onlyA {
		d = append(d, diffLine{"output", fmt.Sprintf("run %d only ansible: %s", run, l)})
	}
	for _, l := range onlyT {
		d = append(d, diffLine{"output", fmt.Sprintf("run %d only tender: %s", run, l)})
	}
	return d
}

// fmtRecap prints recap counts as PLAY RECAP does.
func fmtRecap(r [7]int) string {
	return fmt.Sprintf("ok=%d changed=%d unreachable=%d failed=%d skipped=%d rescued=%d ignored=%d", r[0], r[1], r[2], r[3], r[4], r[5], r[6])
}

// sortedDiff returns the lines only one of two dumps has, as "ansible
// only: LINE" and "tender only: LINE".
func sortedDiff(a, t string) []string {
	var d []string
	for _, l := range lineDiff(a, t) {
		d = append(d, "ansible only: "+l)
	}
	for _, l := range lineDiff(t, a) {
		d = append(d, "tender only: "+l)
	}
	return d
}

// treeListing lists a controller directory: each path with its type and
// the md5 of its content, sorted.
func treeListing(t *testing.T, root string) string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `cd "$1" && find . -mindepth 1 -printf '%p %y %m\n' | sort && find . -type f -exec md5sum {} + | sort`, "sh", root).CombinedOutput()
	if err != nil {
		t.Fatalf("listing %s: %v %s", root, err, out)
	}
	return string(out)
}

var reDumpMD5 = regexp.MustCompile(`^state: (?:ansible|tender) only: md5 (.*) [0-9a-f]{32}$`)

// contentDiffs shows both hosts' copies of the files whose content
// differs, to explain a failure.
func contentDiffs(t *testing.T, sides [2]*diffSide, bad []string) string {
	seen := map[string]bool{}
	var b strings.Builder
	for _, l := range bad {
		m := reDumpMD5.FindStringSubmatch(l)
		if m == nil || seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		for _, s := range sides {
			out, _ := exec.Command("docker", "exec", s.h.container, "head", "-c", "4000", m[1]).CombinedOutput()
			fmt.Fprintf(&b, "--- %s on the %s host\n%s\n", m[1], s.tool, out)
		}
	}
	return b.String()
}

// seqDiff returns the lines only a has and only b has, in order, by their
// longest common subsequence.
func seqDiff(a, b []string) (onlyA, onlyB []string) {
	n, m := len(a), len(b)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			i, j = i+1, j+1
		case l[i+1][j] >= l[i][j+1]:
			onlyA, i = append(onlyA, a[i]), i+1
		default:
			onlyB, j = append(onlyB, b[j]), j+1
		}
	}
	return append(onlyA, a[i:]...), append(onlyB, b[j:]...)
}

var (
	reTaskHead   = regexp.MustCompile(`^(TASK|RUNNING HANDLER) \[(.*)\] \*+$`)
	reTaskStatus = regexp.MustCompile(`^(ok|changed|skipping|failed|fatal): \[`)
)

// taskStatuses returns each task's outcome lines in order, one per item,
// without the item's label ("TASK [x] ok", "RUNNING HANDLER [y] changed"),
// so that the runs compare task by task rather than by their sums. The
// labels are left out because they are display only: tender prints a dict
// item's keys sorted, Ansible in the order written.
func taskStatuses(out string) []string {
	var head string
	var got []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if m := reTaskHead.FindStringSubmatch(l); m != nil {
			head = m[1] + " [" + m[2] + "]"
		} else if m := reTaskStatus.FindStringSubmatch(l); m != nil && head != "" {
			got = append(got, head+" "+m[1])
		}
	}
	return got
}

// lineDiff returns the lines of a that b lacks (as multisets).
func lineDiff(a, b string) []string {
	have := map[string]int{}
	for _, l := range strings.Split(b, "\n") {
		have[l]++
	}
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if have[l] > 0 {
			have[l]--
			continue
		}
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}
