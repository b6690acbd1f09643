package provision_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
)

// strategyPlay has host a wait (up to 3 s) in its first task for host b to
// have run the second task: only a strategy that lets b move on while a
// is busy gets both hosts through. Every task appends its host and number
// to the log.
const strategyPlay = `
- hosts: all
  gather_facts: false
  strategy: %s
  tasks:
    - shell: |
        echo {{ inventory_hostname }}1 >> log
        [ {{ inventory_hostname }} = a ] || exit 0
        for i in $(seq 30); do [ -e b2 ] && exit 0; sleep 0.1; done
        exit 1
      args: {chdir: "%s"}
    - shell: echo {{ inventory_hostname }}2 >> log && touch {{ inventory_hostname }}2
      args: {chdir: "%s"}
`

const twoLocalHosts = "a ansible_connection=local\nb ansible_connection=local\n"

func runStrategy(t *testing.T, strategy string, forks int, defaults string) (log string, recap *provision.Recap, err error) {
	t.Helper()
	dir := t.TempDir()
	pb := strings.ReplaceAll(strategyPlay, "%s", "§")
	pb = strings.Replace(pb, "§", strategy, 1)
	pb = strings.ReplaceAll(pb, "§", dir)
	if strategy == "" {
		pb = strings.Replace(pb, "  strategy: \n", "", 1)
	}
	_, recap, err = play(t, twoLocalHosts, pb, func(r *provision.Runner) {
		r.Modules = builtin.Registry() // the real shell
		r.Forks = forks
		r.Defaults.Strategy = defaults
	})
	data, _ := os.ReadFile(filepath.Join(dir, "log"))
	return strings.Join(strings.Fields(string(data)), " "), recap, err
}

// TestStrategyFreeLetsHostsMoveOn: under free (by any of its names, or as
// the default strategy) b runs on while a waits for it; under linear, b
// cannot start the second task before a ends the first, so a fails.
func TestStrategyFreeLetsHostsMoveOn(t *testing.T) {
	for _, c := range []struct{ strategy, defaults string }{
		{"free", ""}, {"ansible.builtin.free", ""}, {"'{{ \"free\" }}'", ""}, {"", "free"},
	} {
		_, recap, err := runStrategy(t, c.strategy, 2, c.defaults)
		if err != nil {
			t.Fatal(err)
		}
		if s := recap.Stats["a"]; s.Failed != 0 || s.Changed != 2 {
			t.Errorf("%+v: a: %+v", c, *s)
		}
	}
	log, recap, err := runStrategy(t, "linear", 2, "free")
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["a"]; s.Failed != 1 || log != "a1 b1 b2" && log != "b1 a1 b2" {
		t.Errorf("linear: a: %+v, log %q", *s, log)
	}
}

// TestStrategyHostPinnedKeepsTheFork: under host_pinned with one fork, a
// runs every task before b starts (so a's wait fails); with two forks
// both run at once and a's wait succeeds.
func TestStrategyHostPinnedKeepsTheFork(t *testing.T) {
	log, recap, err := runStrategy(t, "host_pinned", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["a"]; s.Failed != 1 || log != "a1 b1 b2" {
		t.Errorf("one fork: a: %+v, log %q", *s, log)
	}
	_, recap, err = runStrategy(t, "host_pinned", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["a"]; s.Failed != 0 || s.Changed != 2 {
		t.Errorf("two forks: a: %+v", *s)
	}
	// free with one fork: a holds it while it waits, so b cannot move on.
	_, recap, err = runStrategy(t, "free", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if s := recap.Stats["a"]; s.Failed != 1 {
		t.Errorf("free, one fork: a: %+v", *s)
	}
}

// TestStrategyRefused: a strategy Ansible does not have is its error, and
// debug (the interactive debugger) is refused; nothing runs.
func TestStrategyRefused(t *testing.T) {
	for strategy, want := range map[string]string{
		"bogus":                 "Invalid play strategy specified: bogus",
		"ansible.builtin.debug": "interactive task debugger",
		"'{{ \"nope\" }}'":      "Invalid play strategy specified: nope",
	} {
		log, _, err := runStrategy(t, strategy, 2, "")
		if err == nil || !strings.Contains(err.Error(), want) || log != "" {
			t.Errorf("%s: err %v, log %q", strategy, err, log)
		}
	}
	if _, _, err := runStrategy(t, "", 2, "mitogen_linear"); err == nil || !strings.Contains(err.Error(), "Invalid play strategy specified: mitogen_linear") {
		t.Errorf("default mitogen_linear: %v", err)
	}
}
