package provision_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"

	"github.com/tender-sh/tender/tasks/builtin"
)

var (
	reResultJSON = regexp.MustCompile(`^((?:fatal|failed): \[[^\]]+\].*?=>) \{.*$`)
	// ansible-playbook's progress lines for async polls and pauses, which
	// tender does not print.
	reProgress = regexp.MustCompile(`^(ASYNC (OK|POLL|FAILED) on |Pausing for \d+ seconds|\(ctrl\+C then)`)
	reBanner   = regexp.MustCompile(`^(PLAY|TASK|RUNNING HANDLER|PLAY RECAP|NO MORE HOSTS LEFT)\b.*\*+$`)
)

// normalize makes ansible-playbook's and tender's outputs comparable: the
// JSON of a failure (the command module's fields differ by design in these
// tests) is cut, multi-line results are joined, result lines inside a
// section are sorted (hosts finish in any order), repeated banners
// (ansible prints a meta task's banner once per host) are dropped, and so are warnings and the progress lines of
// async polls and pauses.
func normalize(out string) string {
	var sections [][]string
	cur := []string{}
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " ")
		if l == "" || strings.HasPrefix(l, "[WARNING]") || strings.HasPrefix(l, "exit ") || reProgress.MatchString(l) {
			continue
		}
		if strings.HasSuffix(l, "=> {") {
			for i+1 < len(lines) && lines[i] != "}" {
				i++
				l += strings.TrimSpace(lines[i])
			}
		}
		l = reResultJSON.ReplaceAllString(l, "$1 {...}")
		if reBanner.MatchString(l) {
			if len(cur) > 0 && cur[0] == l && len(cur) == 1 {
				continue
			}
			sections = append(sections, cur)
			cur = []string{l}
			continue
		}
		cur = append(cur, l)
	}
	sections = append(sections, cur)
	var b strings.Builder
	for _, s := range sections {
		if len(s) > 1 && !strings.HasPrefix(s[0], "PLAY RECAP") {
			sort.Strings(s[1:])
		}
		b.WriteString(strings.Join(s, "\n") + "\n")
	}
	return b.String()
}

// TestEngineAgainstAnsible runs each case of testdata/engine (hosts on the
// local connection) with tender and compares the output with what
// ansible-playbook printed for the same playbook (recorded by
// testdata/engine/gen.sh).
func TestEngineAgainstAnsible(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/engine/*")
	if len(dirs) < 5 {
		t.Fatalf("only %d engine cases", len(dirs))
	}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "pb.yml")); err != nil {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "ansible.out"))
			if err != nil {
				t.Fatal(err)
			}
			got, recap, err := runCase(t, dir)
			status := 1 // a run that ends in error: ansible-playbook's ERROR!
			var pe *provision.PlayError
			switch {
			case err == nil:
				status = exitStatus(recap)
			case errors.As(err, &pe) && pe.Parser:
				status = 4 // its parser error
			}
			if g, w := status, recordedExit(string(want)); g != w {
				t.Errorf("tender's run would exit %d, ansible-playbook exited %d", g, w)
			}
			if abs, err := filepath.Abs(dir); err == nil {
				got = strings.ReplaceAll(got, abs+"/", "@DIR@/")
			}
			if g, w := normalize(got), normalize(string(want)); g != w {
				t.Errorf("tender's output differs from ansible-playbook's\n--- tender\n%s\n--- ansible\n%s", g, w)
			}
		})
	}
}

// exitStatus is the status tender play exits with after a run that
// ended with recap.
func exitStatus(recap *provision.Recap) int {
	switch {
	case recap.Unreachable():
		return 4
	case recap.Failed():
		return 2
	}
	return 0
}

// recordedExit is ansible-playbook's exit status gen.sh recorded (an
// "exit N" line; none when it was 0).
func recordedExit(out string) int {
	for _, l := range strings.Split(out, "\n") {
		if n, ok := strings.CutPrefix(l, "exit "); ok {
			v, _ := strconv.Atoi(n)
			return v
		}
	}
	return 0
}

// ansibleEnv is the environment gen.sh runs ansible-playbook in: this
// process's, with the settings of testdata/engine/ansible.env.
func ansibleEnv(t *testing.T) func(string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile("testdata/engine/ansible.env")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		env[k] = v
	}
	return func(k string) (string, bool) {
		if v, ok := env[k]; ok {
			return v, true
		}
		return os.LookupEnv(k)
	}
}

// runCase runs the case in dir with tender's configuration loaded there,
// as ansible-playbook reads it (ansible.cfg in dir, ansible.env).
func runCase(t *testing.T, dir string) (string, *provision.Recap, error) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Options{Dir: abs, Getenv: ansibleEnv(t)})
	if err != nil {
		t.Fatal(err)
	}
	hb, err := cfg.Setting("DEFAULT_HASH_BEHAVIOUR")
	if err != nil {
		t.Fatal(err)
	}
	merge := hb == "merge"
	inv, err := inventory.LoadWith(inventory.Options{HashMerge: merge}, filepath.Join(dir, "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	// Warnings are left out (ansible.out holds stdout only, Ansible's
	// warnings going to stderr).
	text := report.Text(&out, false)
	events := func(e provision.Event) {
		if e.Kind != provision.Warning {
			text(e)
		}
	}
	r := &provision.Runner{Inventory: inv, Modules: testModules(), Connections: transport.NewConnections().Add("ssh", local.Dialer{}).Add("local", local.Dialer{}),
		Forks: 5, Events: events, Config: cfg, HashMerge: merge}
	recap, err := r.Run(context.Background(), pb)
	return out.String(), recap, err
}
