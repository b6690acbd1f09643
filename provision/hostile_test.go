package provision_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// The hostile-host suite: a host an attacker controls (hostileHost) answers
// every channel with payloads, and the playbooks below carry what it said
// into every module argument of every registered module and every
// keyword of every level. Whatever fails or succeeds, no payload may ever
// be evaluated: the mark file must not appear. A module or keyword added
// later is covered without editing the suite, as it enumerates the
// registry and the playbook loader's keywords.

// hostileSources are the tasks that gather what the hostile host says into
// the list hostile, through each channel: command output and its stderr, a
// JSON document it prints, a file it sends (fetch), its facts (name,
// kernel, distribution, environment values and names) and its custom facts
// (JSON and INI). The assert checks each source is marked on its own.
var hostileSources = []any{
	map[string]any{"name": "host text", "command": "echo HOSTILE-TEXT", "register": "r"},
	map[string]any{"name": "a file from the host", "fetch": map[string]any{"src": "/etc/HOSTILE-FILE", "dest": "{{ playbook_dir }}/fetched", "flat": true}},
	map[string]any{"name": "gather", "set_fact": map[string]any{"hostile": "{{ " + strings.Join(hostileExprs, " + ") + " }}"}},
	map[string]any{"name": "every source is marked", "assert": map[string]any{"that": hostileChecks()}},
}

// hostileExprs are the sources, each a list expression.
var hostileExprs = []string{
	"r.stdout_lines", "[r.stderr]",
	"[ansible_hostname, ansible_fqdn, ansible_kernel, ansible_distribution, ansible_user_id]",
	"[ansible_env.HOSTILE, ansible_env.HOME, ansible_local.hostile.p, ansible_local.hostile.list[0], ansible_local.hostini.s.k]",
	"[ansible_env | dict2items | map(attribute='key') | select('search', 'lookup') | first]",
	"[(r.stdout_lines[0] | to_json | from_json)]",
	"[lookup('file', playbook_dir ~ '/fetched').splitlines()[1]]",
}

// hostileCount is how many strings hostile holds.
const hostileCount = 8 + 1 + 5 + 5 + 1 + 1 + 1

func hostileChecks() []any {
	out := []any{"hostile | length == " + itoa(hostileCount)}
	for _, e := range []string{"r.stdout", "r.stderr", "ansible_hostname", "ansible_distribution", "ansible_env.HOSTILE",
		"ansible_local.hostile.p", "ansible_local.hostini.s.k", "lookup('file', playbook_dir ~ '/fetched')"} {
		out = append(out, "("+e+") | type_debug == 'AnsibleUnsafeText'")
	}
	return out
}

// hostileRun is one run of a generated playbook against a hostile host.
type hostileRun struct {
	out     string
	recap   *provision.Recap
	err     error
	results []provision.Event // every HostResult
}

// runHostile writes plays (a list of plays, each a map) and extra files
// into a fresh directory, loads them and runs them with every ssh host
// being h. A load error is returned as err with no run.
func runHostile(t *testing.T, h *hostileHost, plays []any, files map[string]string) hostileRun {
	t.Helper()
	dir := t.TempDir()
	b, err := yaml.Marshal(plays)
	if err != nil {
		t.Fatal(err)
	}
	files["pb.yml"] = string(b)
	files["hosts"] = "evil\n"
	writeTree(t, dir, files)
	inv, err := inventory.Load(filepath.Join(dir, "hosts"))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		return hostileRun{err: err}
	}
	var out bytes.Buffer
	var mu sync.Mutex
	var results []provision.Event
	text := report.Text(&out, false)
	r := &provision.Runner{Inventory: inv, Modules: builtin.Registry(), Forks: 4,
		Connections: transport.NewConnections().Add("ssh", h).Add("local", local.Dialer{}),
		Events: func(e provision.Event) {
			if e.Kind == provision.HostResult {
				mu.Lock()
				results = append(results, e)
				mu.Unlock()
			}
			text(e)
		}}
	recap, err := r.Run(context.Background(), pb)
	return hostileRun{out: out.String(), recap: recap, err: err, results: results}
}

// sourcesHeld reports whether the sources' assert passed: every channel
// delivered a marked payload.
func (hr hostileRun) sourcesHeld() bool {
	for _, e := range hr.results {
		if e.Task == "every source is marked" && e.Status == provision.StatusOK {
			return true
		}
	}
	return false
}

// carried reports whether a result of a task named with prefix shows one
// of h's payloads (the token): the payload reached the module or keyword
// and came back as data.
func (hr hostileRun) carried(h *hostileHost, prefix string) bool {
	for _, e := range hr.results {
		if !strings.HasPrefix(e.Task, prefix) {
			continue
		}
		b, _ := json.Marshal(e.Result)
		if bytes.Contains(b, []byte(h.token)) || strings.Contains(e.Task, h.token) {
			return true
		}
	}
	return false
}

// loadable keeps the tasks that the playbook loader accepts on their own
// (a shape a module refuses at load, such as a dict for assert's that,
// never reaches a host) and logs the others.
func loadable(t *testing.T, tasks []any) []any {
	t.Helper()
	dir := t.TempDir()
	var out []any
	for i, task := range tasks {
		b, _ := yaml.Marshal([]any{map[string]any{"hosts": "evil", "gather_facts": false, "tasks": []any{task}}})
		p := filepath.Join(dir, itoa(i)+".yml")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := playbooks.Load(p, playbooks.Options{Modules: builtin.Registry()}); err != nil {
			t.Logf("refused at load: %v", err)
			continue
		}
		out = append(out, task)
	}
	return out
}

// hostilePlay is a play on the hostile host: the sources, then tasks.
func hostilePlay(tasks ...any) map[string]any {
	return map[string]any{"hosts": "evil", "gather_facts": true, "tasks": append(append([]any{}, hostileSources...), tasks...)}
}

// TestHostileSources: every channel of the hostile host delivers its
// payloads, each marked, and nothing is evaluated: the suite below is
// only as good as its sources.
func TestHostileSources(t *testing.T) {
	h := newHostileHost(t)
	hr := runHostile(t, h, []any{hostilePlay(map[string]any{"name": "show", "debug": map[string]any{"var": "hostile"}})}, map[string]string{})
	if hr.err != nil {
		t.Fatal(hr.err)
	}
	if !hr.sourcesHeld() {
		t.Fatalf("the sources did not all deliver a marked payload:\n%s", hr.out)
	}
	if !hr.carried(h, "show") {
		t.Fatalf("the payloads did not come back as text:\n%s", hr.out)
	}
	if h.marked() {
		t.Fatalf("a payload was evaluated on the controller:\n%s", hr.out)
	}
}

// hostileFiller is a harmless value for a required parameter that is not
// the one under test, so that the module reads further than its argument
// check.
func hostileFiller(p tasks.Param) any {
	if len(p.Choices) > 0 {
		return p.Choices[0]
	}
	switch p.Kind {
	case tasks.Bool:
		return false
	case tasks.Int, tasks.Float:
		return 1
	case tasks.List:
		return []any{"x"}
	case tasks.Dict:
		return map[string]any{}
	}
	return "/tmp/tender-hostile-filler"
}

// hostileModuleTasks are the tasks that hand the hostile host's payloads
// to module m: each parameter in turn gets every payload (a loop), the
// whole list, and a dict of them, its required siblings harmless fillers;
// a free-form module gets them as its text too.
func hostileModuleTasks(m string, spec *tasks.Spec) []any {
	var out []any
	task := func(name string, args any, loop bool) {
		t := map[string]any{"name": m + " " + name, m: args, "ignore_errors": true, "timeout": 30}
		if loop {
			t["loop"] = "{{ hostile[:" + itoa(len(payloadForms)) + "] }}"
		}
		out = append(out, t)
	}
	if spec == nil || spec.FreeForm {
		task("free-form", "{{ item }}", true)
	}
	if spec == nil {
		task("no arguments", map[string]any{}, false)
		return out
	}
	for _, p := range spec.Params {
		base := maps.Clone(hostileQuick[m])
		if base == nil {
			base = map[string]any{}
		}
		for _, q := range spec.Params {
			if q.Required && q.Name != p.Name {
				base[q.Name] = hostileFiller(q)
			}
		}
		with := func(v any) map[string]any {
			a := maps.Clone(base)
			a[p.Name] = v
			return a
		}
		task(p.Name, with("{{ item }}"), true)
		task(p.Name+" list", with("{{ hostile }}"), false)
		task(p.Name+" dict", with(map[string]any{"k": "{{ hostile[0] }}", "v": "{{ hostile[1] }}"}), false)
	}
	return out
}

// payloadForms stands for the payloads' forms: the first entries of
// hostile, the host's text, hold one each. A parameter gets each form
// (the channels a payload came through are the sources' concern).
var payloadForms = make([]struct{}, 8)

// hostileQuick bounds the waiting of the modules that wait for a host (the
// hostile host never gives them what they wait for): the parameter under
// test overrides these.
var hostileQuick = map[string]map[string]any{
	"reboot":              {"reboot_timeout": 0, "connect_timeout": 0, "pre_reboot_delay": 0, "post_reboot_delay": 0},
	"wait_for_connection": {"timeout": 0, "delay": 0, "sleep": 1, "connect_timeout": 0},
	"wait_for":            {"timeout": 0, "sleep": 1},
	"async_status":        {"mode": "status"},
}

// engineActionParams are the parameters of the actions the engine runs
// itself (tasks.EngineDefs), which have no Spec.
var engineActionParams = map[string][]string{
	"setup":               {"gather_subset", "filter", "fact_path", "gather_timeout"},
	"gather_facts":        {"parallel"},
	"async_status":        {"jid", "mode"},
	"wait_for_connection": {"connect_timeout", "delay", "sleep", "timeout"},
	"reboot": {"msg", "pre_reboot_delay", "post_reboot_delay", "reboot_timeout", "connect_timeout",
		"test_command", "search_paths", "boot_time_command", "reboot_command"},
}

// TestHostileHostEveryModule runs every module of the registry, and every
// action of the engine's own, with every argument taken from a hostile
// host: nothing the host said is ever evaluated.
func TestHostileHostEveryModule(t *testing.T) {
	t.Parallel()
	reg := builtin.Registry()
	specs := map[string]*tasks.Spec{}
	var names []string
	for _, d := range reg.Defs() {
		if d.Name == playbooks.LibraryModule {
			continue // runs a module shipped in library/; TestHostileLibraryModule
		}
		names = append(names, d.Name)
		specs[d.Name] = d.Spec()
	}
	for _, d := range tasks.EngineDefs() {
		a := d.Name
		if d.Engine == tasks.EngineMeta {
			continue // its argument is never templated, in Ansible neither
		}
		ps, ok := engineActionParams[a]
		if !ok {
			t.Errorf("engine action %s: no parameters listed in engineActionParams", a)
			continue
		}
		spec := &tasks.Spec{Module: a}
		for _, p := range ps {
			spec.Params = append(spec.Params, tasks.Param{Name: p})
		}
		names = append(names, a)
		specs[a] = spec
	}
	for _, m := range names {
		t.Run(m, func(t *testing.T) {
			t.Parallel()
			h := newHostileHost(t)
			hr := runHostile(t, h, []any{hostilePlay(loadable(t, hostileModuleTasks(m, specs[m]))...)}, map[string]string{})
			if hr.err != nil {
				t.Fatalf("load: %v", hr.err)
			}
			if h.marked() {
				t.Fatalf("a payload was evaluated on the controller:\n%s", hr.out)
			}
			if !hr.sourcesHeld() {
				t.Fatalf("the sources did not deliver:\n%s", hr.out)
			}
			if s := hr.recap.Stats["evil"]; s == nil || s.Failed+s.Unreachable != 0 {
				t.Errorf("a failure was not ignored:\n%s", hr.out)
			}
			if len(specs[m].Params) > 0 || specs[m].FreeForm {
				h.mu.Lock()
				carried := h.carried
				h.mu.Unlock()
				if carried == 0 && !hr.carried(h, m+" ") {
					t.Errorf("no payload reached %s (no script carried one, no result shows one):\n%s", m, hr.out)
				}
			}
		})
	}
}
