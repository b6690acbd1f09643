//go:build e2e

package packages

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/fleetimage"
	"github.com/tender-sh/tender/playbooks/expr"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// The fidelity cases of the Debian package-management modules
// (apt_repository, apt_key, dpkg_selections, package_facts) share this
// harness: a case is a directory under testdata (image, tasks.yml,
// optional debs and setup.sh; see testdata/apt_repository/host.sh), whose
// tasks run on a fresh host made by host.sh with tender's modules, each
// result compared with what ansible-core registered for the same task on
// another fresh host made the same way (CASE/ansible.json, recorded by
// testdata/apt_repository/gen.sh).
//
// Normalization, applied to both sides: the result as register: stores it
// (registered), normalized as TestFidelity does (normalize); a diff list
// sorted by its headers (Ansible builds it from a Python set); the case's
// own normalizer. A task named dump_* (a shell task that prints files)
// is compared by its stdout and rc only.

// debCaseModules are the modules under test, called directly; any other
// module of a task list (shell, for the dumps) comes from modtest.Modules().
var debCaseModules = map[string]tasks.Module{
	"apt_repository":  aptRepositoryModule{},
	"apt_key":         aptKeyModule{},
	"dpkg_selections": dpkgSelectionsModule{},
	"package_facts":   packageFactsModule{},
}

// debCaseTask is one task of a case's task list.
type debCaseTask struct {
	name, module string
	args         tasks.Args
	check, diff  bool
}

func loadDebCase(t *testing.T, path string) []debCaseTask {
	t.Helper()
	var list []map[string]any
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	var out []debCaseTask
	for _, task := range list {
		ct := debCaseTask{name: task["name"].(string), check: task["check_mode"] == true, diff: task["diff"] == true}
		for k, v := range task {
			switch k {
			case "name", "check_mode", "diff":
				continue
			}
			ct.module = k
			switch a := v.(type) {
			case string:
				ct.args = tasks.Args{"_raw_params": a}
			case map[string]any:
				ct.args = tasks.Args(a)
			default:
				ct.args = tasks.Args{}
			}
		}
		out = append(out, ct)
	}
	return out
}

// debCaseHost starts the case's host with host.sh (building the fleet's
// image and repositories first) and removes it when the test ends.
func debCaseHost(t *testing.T, name string) string {
	t.Helper()
	image, err := os.ReadFile(filepath.Join("../testdata", name, "image"))
	if err != nil {
		t.Fatal(err)
	}
	fleetimage.Need(t, strings.TrimSpace(string(image)))
	fleetimage.NeedApt(t)
	fleetimage.NeedRPM(t)
	out, err := exec.Command("sh", "../testdata/apt_repository/host.sh", name).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("host.sh %s: %v\n%s", name, err, msg)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("docker", "rm", "-f", id).Run() })
	return id
}

// runDebCase runs case name's tasks on a fresh host and compares each
// result with ansible-core's. known lists, per task, the keys left out of
// the comparison (each with its reason where the case calls it); a task
// whose list is {"*"} is not compared at all. norm normalizes a result
// further, on both sides. It returns the host's container id.
func runDebCase(t *testing.T, name string, known map[string][]string, norm func(task string, m map[string]any)) string {
	var want map[string]map[string]any
	b, err := os.ReadFile(filepath.Join("../testdata", name, "ansible.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	id := debCaseHost(t, name)
	files, _ := filepath.Abs("../testdata/files")
	env, _ := modtest.TestEnv(t, files, nil)
	env.Conn = modtest.DockerConn(t, id)
	scope := expr.NewVars(map[string]any{})
	seen := 0
	for _, task := range loadDebCase(t, filepath.Join("../testdata", name, "tasks.yml")) {
		rendered, err := expr.RenderDeep(map[string]any(task.args), scope)
		if err != nil {
			t.Fatalf("%s: %v", task.name, err)
		}
		m, ok := debCaseModules[task.module]
		if !ok {
			f, found := modtest.Modules().Lookup(task.module)
			if !found {
				t.Fatalf("%s: no module %s", task.name, task.module)
			}
			m = f()
		}
		env.Check, env.Diff = task.check, task.diff
		res, err := m.Run(context.Background(), env, tasks.Args(rendered.(map[string]any)))
		if err != nil {
			msg, _, _ := strings.Cut(err.Error(), " Did you mean")
			res = tasks.Result{Failed: true, Msg: msg}
		}
		got := modtest.Registered(res)
		w, ok := want[task.name]
		if !ok {
			t.Errorf("%s: not recorded; run testdata/apt_repository/gen.sh %s", task.name, name)
			continue
		}
		if k := known[task.name]; len(k) == 1 && k[0] == "*" {
			continue
		}
		seen++
		g, wn := debNormalize(got, task.name, norm), debNormalize(w, task.name, norm)
		for _, k := range known[task.name] {
			delete(g, k)
			delete(wn, k)
		}
		if !reflect.DeepEqual(g, wn) {
			t.Errorf("%s:\n%s", task.name, modtest.DescribeDiff(g, wn))
		}
	}
	t.Logf("%d tasks of %s compared with ansible-core", seen, name)
	return id
}

// debNormalize applies the harness's normalization to a copy of m.
func debNormalize(m map[string]any, task string, norm func(string, map[string]any)) map[string]any {
	c := modtest.Normalize(m, "", "")
	if strings.HasPrefix(task, "dump_") {
		return map[string]any{"stdout": c["stdout"], "rc": c["rc"]}
	}
	if l, ok := c["diff"].([]any); ok {
		sort.Slice(l, func(i, j int) bool {
			a, _ := l[i].(map[string]any)
			b, _ := l[j].(map[string]any)
			return debDiffKey(a) < debDiffKey(b)
		})
	}
	if norm != nil {
		norm(task, c)
	}
	return c
}

func debDiffKey(d map[string]any) string {
	b, _ := d["before_header"].(string)
	a, _ := d["after_header"].(string)
	return b + "\x00" + a
}

// debExec runs a shell command on the container and returns its output.
func debExec(t *testing.T, id, script string) string {
	t.Helper()
	out, err := exec.Command("docker", "exec", id, "sh", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return string(out)
}

// TestAptRepositoryFidelity runs testdata/apt_repository/tasks.yml with
// tender's apt_repository on a fresh fleet host and compares every result
// with ansible-core's, and the sources files after each step (the dump_
// tasks), which include apt_repository's rewriting of every file in its
// normal form and its removal of empty ones. Nothing is left out.
func TestAptRepositoryFidelity(t *testing.T) {
	runDebCase(t, "apt_repository", nil, nil)
}

// debTmpName matches the random names of apt-key's temporary directories
// in what it prints.
var debTmpName = regexp.MustCompile(`/tmp/apt-key-gpghome\.[A-Za-z0-9]+`)

// TestAptKeyFidelity runs testdata/apt_key/tasks.yml with tender's
// apt_key on a fresh fleet host with gpg, gpg-agent and dirmngr (a key
// file, binary and armored, data, a URL served on the host, a keyserver
// on the host (hkp.py), keyrings, short and long ids, a subkey, an
// expired key, failures) and compares every result, and the keyrings at
// the end, with ansible-core's. apt-key's temporary directory names in
// its output become TMP. Left out: the message of a refused connection
// (Python's errno text in Ansible, the dial error in tender).
func TestAptKeyFidelity(t *testing.T) {
	runDebCase(t, "apt_key", map[string][]string{"ak_url_refused": {"msg"}}, func(_ string, m map[string]any) {
		for _, k := range []string{"stdout", "stderr"} {
			if s, ok := m[k].(string); ok {
				m[k] = debTmpName.ReplaceAllString(s, "TMP")
				m[k+"_lines"] = shared.Lines(m[k].(string))
			}
		}
	})
}
