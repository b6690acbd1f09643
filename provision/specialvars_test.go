package provision_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tender-sh/tender/config"
	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// recordSpecialVars, set, makes TestSpecialVars run ansible-playbook on
// testdata/specialvars and write what it printed to ansible.json, instead
// of comparing tender's run with it.
var recordSpecialVars = flag.Bool("specialvars.record", false, "record testdata/specialvars/ansible.json with ansible-playbook")

// specialVarsDir holds the special-variables case: names.txt (the names
// of the "Special Variables" page of Ansible's documentation; names.sh
// regenerates it), an inventory (inv/), pb.yml, whose probe tasks print
// every special variable in each context (the probe variable of
// inv/group_vars/all.yml), and ansible.json, what ansible-playbook printed.
const specialVarsDir = "testdata/specialvars"

// specialVarsMarker starts every probe's message; JSON follows.
const specialVarsMarker = "SPECIALVARS "

// specialVarsExtra are the special variables the probes print that the
// page does not name: Ansible sets them for a rescue.
var specialVarsExtra = []string{"ansible_failed_task", "ansible_failed_result"}

// specialVarsRun is one run of the case: ansible-playbook's options
// (after -i inv/hosts pb.yml) and the same options given to tender's
// Runner.
type specialVarsRun struct {
	name string
	args []string
	set  func(r *provision.Runner)
}

var specialVarsRuns = []specialVarsRun{
	{"plain", []string{"-f", "3", "-e", "x=1"}, func(r *provision.Runner) {
		r.Forks = 3
		r.ExtraVars = map[string]any{"x": "1"}
	}},
	{"options", []string{"-f", "7", "--limit", "all:!w2", "--tags", "probe,other,probe", "--skip-tags", "never1,never2",
		"--check", "--diff", "-vv"}, func(r *provision.Runner) {
		r.Forks = 7
		r.Limit = "all:!w2"
		r.Tags = playbooks.TagFilter{Only: []string{"probe", "other", "probe"}, Skip: []string{"never1", "never2"}}
		r.Check, r.Diff, r.Verbosity = true, true, 2
	}},
}

// specialVarsDiffer are the variables whose value in tender differs from
// Ansible's on purpose, and why. Every other variable must match in
// every context. Besides, the probes compare some values in part
// (inv/group_vars/all.yml), which is where tender's differ:
//
//   - ansible_playbook_python is the Python that runs Ansible; tender runs
//     none, and gives the controller's python3 found on PATH (so does the
//     implicit localhost's ansible_python_interpreter). Both are written
//     @PYTHON@, and are undefined in tender on a controller without
//     python3 (specialVarsNoPython).
//   - omit is Ansible's placeholder followed by 40 random hex digits, new
//     each run; tender's is the placeholder alone. The probes drop the
//     digits.
//   - ansible_failed_task is the whole failed task as Ansible serializes
//     it (uuid, args, parent blocks...); tender's holds its name and
//     action, which the probes compare.
//   - hostvars and ansible_facts are compared by their hosts and keys
//     and a few values: facts themselves have their own tests.
//   - ansible_role_names, ansible_dependent_role_names, ansible_run_tags
//     and ansible_skip_tags are lists Ansible builds from sets, in an
//     order that changes from run to run: the probes sort them.
var specialVarsDiffer = map[string]string{}

// specialVarsNoPython are the variables that differ on a controller
// without python3 on PATH: tender leaves them undefined there.
var specialVarsNoPython = []string{"ansible_playbook_python", "ansible_python_interpreter"}

// specialVarsEnv is the environment of the recorded runs (and of
// tender's configuration).
var specialVarsEnv = map[string]string{
	"ANSIBLE_STDOUT_CALLBACK":      "ansible.posix.json",
	"ANSIBLE_NOCOLOR":              "1",
	"ANSIBLE_RETRY_FILES_ENABLED":  "0",
	"ANSIBLE_LOCALHOST_WARNING":    "0",
	"ANSIBLE_DEPRECATION_WARNINGS": "0",
}

// specialVarsRecord is ansible.json: per run, per "context|host", each
// variable's value.
type specialVarsRecord map[string]map[string]map[string]any

// TestSpecialVars runs testdata/specialvars with tender and compares
// every special variable's value, in every context the probes print it,
// with the value ansible-playbook printed (ansible.json); see
// specialVarsDiffer for the deliberate differences.
func TestSpecialVars(t *testing.T) {
	dir, err := filepath.Abs(specialVarsDir)
	if err != nil {
		t.Fatal(err)
	}
	names := specialVarNames(t)
	if *recordSpecialVars {
		recordSpecialVarsCase(t, dir)
		return
	}
	_, err = exec.LookPath("python3")
	noPython := err != nil
	b, err := os.ReadFile(filepath.Join(dir, "ansible.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want specialVarsRecord
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for _, run := range specialVarsRuns {
		t.Run(run.name, func(t *testing.T) {
			got := runSpecialVars(t, dir, run)
			w := want[run.name]
			if len(w) == 0 {
				t.Fatalf("ansible.json has no run %q", run.name)
			}
			for _, key := range sortedKeys(w) {
				g, ok := got[key]
				if !ok {
					t.Errorf("%s: tender printed no probe", key)
					continue
				}
				for _, n := range names {
					wv, ok := w[key][n]
					if !ok {
						t.Fatalf("%s: ansible.json lacks %s: record it again", key, n)
					}
					if _, differs := specialVarsDiffer[n]; differs || noPython && contains(specialVarsNoPython, n) {
						continue
					}
					if gv := g[n]; !reflect.DeepEqual(gv, wv) {
						t.Errorf("%s: %s is %s, Ansible's is %s", key, n, jsonText(gv), jsonText(wv))
					}
				}
			}
			for _, key := range sortedKeys(got) {
				if _, ok := w[key]; !ok {
					t.Errorf("%s: tender printed a probe ansible-playbook did not", key)
				}
			}
		})
	}
}

// specialVarNames are names.txt's names and specialVarsExtra.
func specialVarNames(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(specialVarsDir, "names.txt"))
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Fields(string(b))
	if len(names) < 40 {
		t.Fatalf("names.txt holds only %d names", len(names))
	}
	for n := range specialVarsDiffer {
		if !contains(append(names, specialVarsExtra...), n) {
			t.Errorf("specialVarsDiffer names %s, which is no special variable", n)
		}
	}
	return append(names, specialVarsExtra...)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// runSpecialVars runs the case with tender and returns its probes.
func runSpecialVars(t *testing.T, dir string, run specialVarsRun) map[string]map[string]any {
	t.Helper()
	inv, err := inventory.Load(filepath.Join(dir, "inv", "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Options{Dir: dir, Getenv: func(k string) (string, bool) {
		if v, ok := specialVarsEnv[k]; ok {
			return v, true
		}
		return os.LookupEnv(k)
	}})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	r := &provision.Runner{Inventory: inv, Modules: builtin.Registry(), Config: cfg,
		InventorySources: []string{filepath.Join(dir, "inv", "hosts")},
		Connections:      transport.NewConnections().Add("ssh", local.Dialer{}).Add("local", local.Dialer{}),
		Events: func(e provision.Event) {
			if e.Kind == provision.HostResult {
				if s, ok := e.Result["msg"].(string); ok && strings.HasPrefix(s, specialVarsMarker) {
					msgs = append(msgs, s)
				}
			}
		}}
	run.set(r)
	if _, err := r.Run(context.Background(), pb); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return specialVarsProbes(t, dir, msgs)
}

// specialVarsProbes decodes probe messages into a map keyed by
// "context|host", the case's directory written as @DIR@ and the
// controller's Python as @PYTHON@.
func specialVarsProbes(t *testing.T, dir string, msgs []string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, m := range msgs {
		m = strings.ReplaceAll(strings.TrimPrefix(m, specialVarsMarker), dir, "@DIR@")
		var p map[string]any
		if err := json.Unmarshal([]byte(m), &p); err != nil {
			t.Fatalf("probe %q: %v", m, err)
		}
		py, _ := p["ansible_playbook_python"].(string)
		if py != "" && py != "UNDEFINED" {
			b, _ := json.Marshal(p)
			b = bytes.ReplaceAll(b, []byte(`"`+py+`"`), []byte(`"@PYTHON@"`))
			p = nil
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
		}
		key := fmt.Sprint(p["ctx"], "|", p["host"])
		if _, dup := out[key]; dup {
			t.Fatalf("two probes for %s", key)
		}
		out[key] = p
	}
	return out
}

// recordSpecialVarsCase runs ansible-playbook on the case for each run
// and writes ansible.json.
func recordSpecialVarsCase(t *testing.T, dir string) {
	rec := specialVarsRecord{}
	for _, run := range specialVarsRuns {
		cmd := exec.Command("ansible-playbook", append([]string{"-i", "inv/hosts", "pb.yml"}, run.args...)...)
		cmd.Dir = dir
		cmd.Env = os.Environ()
		for k, v := range specialVarsEnv {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Run(); err != nil {
			t.Logf("%s: ansible-playbook: %v", run.name, err)
		}
		// -v prints the version and configuration before the JSON.
		out := stdout.Bytes()
		if i := bytes.Index(out, []byte("\n{")); i >= 0 && out[0] != '{' {
			out = out[i+1:]
		}
		var doc any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("%s: %v", run.name, err)
		}
		var msgs []string
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for _, e := range v {
					walk(e)
				}
			case []any:
				for _, e := range v {
					walk(e)
				}
			case string:
				if strings.HasPrefix(v, specialVarsMarker) {
					msgs = append(msgs, v)
				}
			}
		}
		walk(doc)
		rec[run.name] = specialVarsProbes(t, dir, msgs)
	}
	// One line per probe, so that a new recording's diff says which
	// values changed.
	var b bytes.Buffer
	b.WriteString("{")
	for i, run := range sortedKeys(rec) {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n%s: {", jsonText(run))
		for j, key := range sortedKeys(rec[run]) {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n %s: %s", jsonText(key), jsonText(rec[run][key]))
		}
		b.WriteString("\n}")
	}
	b.WriteString("\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "ansible.json"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
