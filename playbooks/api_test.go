package playbooks

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tender-sh/tender/tasks"
)

// writeFiles lays out files (path → content) under a temp dir and returns
// the dir.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCanonicalModule(t *testing.T) {
	m := newModuleSet(testModules)
	for in, want := range map[string]string{
		"ansible.builtin.copy":        "copy",
		"ansible.legacy.shell":        "shell",
		"ansible.posix.sysctl":        "sysctl",
		"community.general.ini_file":  "ini_file",
		"community.general.modprobe":  "modprobe",
		"apt":                         "apt",
		"ansible.builtin.meta":        "meta",
		"ansible.builtin.import_role": "import_role",
		"community.general.nmcli":     "community.general.nmcli",
		"ansible.posix.mount":         "mount",
		"ansible.posix.firewalld":     "firewalld",
		"community.general.lvol":      "lvol",
		"community.general.lvg":       "lvg",
		"community.general.npm":       "npm",
		"ansible.posix.seboolean":     "seboolean",
	} {
		if got := m.canonical(in); got != want {
			t.Errorf("canonical(%q) = %q, want %q", in, got, want)
		}
	}
	for name, want := range map[string][2]bool{
		"shell": {true, true}, "ansible.builtin.command": {true, true}, "set_fact": {false, true},
		"meta": {false, true}, "include_tasks": {false, true}, "copy": {false, false}, "nosuch": {false, false},
	} {
		if got := [2]bool{m.freeForm(name), m.rawParams(name)}; got != want {
			t.Errorf("%s: free form, raw params = %v, want %v", name, got, want)
		}
	}
}

// restricted is the built-in registry restricted to names.
func restricted(t *testing.T, names ...string) *tasks.Registry {
	t.Helper()
	r, err := testModules.Restrict(names...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSuggest(t *testing.T) {
	mods := testModules.Names()
	for in, want := range map[string]string{
		"shel": "shell", "servce": "service", "lineinfle": "lineinfile",
		"ansible.builtin.cpy": "copy", "xyzzy": "",
	} {
		if got := suggest(in, mods); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestModulesOption(t *testing.T) {
	dir := writeFiles(t, map[string]string{"pb.yml": "- hosts: all\n  tasks:\n    - shell: echo hi\n    - ping:\n"})
	_, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: restricted(t, "ping", "debug")})
	if err == nil || !strings.Contains(err.Error(), `couldn't resolve module/action "shell"`) {
		t.Fatalf("a module outside Options.Modules must be refused, got %v", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 3 || e.Pos.Col != 7 {
		t.Fatalf("position: %+v", e)
	}
}

func TestBareTaskList(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"agent.yml": "- name: a\n  debug: msg=hi\n- shell: echo\n",
		"plays.yml": "- hosts: all\n  tasks: []\n",
	})
	pb, err := Load(filepath.Join(dir, "agent.yml"), Options{Modules: testModules, Hosts: "web"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pb.Plays) != 1 || pb.Plays[0].Hosts != "web" || len(pb.Plays[0].Tasks) != 2 {
		t.Fatalf("bare task list: %+v", pb.Plays)
	}
	if _, err := LoadTasks(filepath.Join(dir, "plays.yml"), "all", Options{Modules: testModules}); err == nil || !strings.Contains(err.Error(), "holds plays") {
		t.Fatalf("LoadTasks on plays: %v", err)
	}
}

func TestInheritanceAndRoleOrder(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  roles:
    - {role: app, when: app_enabled, tags: app}
    - {role: app, when: app_enabled}
    - {role: app, http_port: 81}
  tasks:
    - block:
        - import_tasks: inner.yml
          when: b
      when: a
    - include_tasks: inner.yml
      when: dyn
`,
		"inner.yml":                    "- name: inner\n  debug: msg=x\n  when: c\n",
		"roles/app/tasks/main.yml":     "- name: app task\n  debug: msg=x\n",
		"roles/app/meta/main.yml":      "dependencies: [{role: base, when: base_ok}]\n",
		"roles/base/tasks/main.yml":    "- name: base task\n  debug: msg=x\n",
		"roles/base/handlers/main.yml": "- name: h\n  debug: msg=h\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	p := pb.Plays[0]
	inner := p.Tasks[0].Block[0].Tasks[0]
	if got := inner.Conditions(); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("static conditions = %v", got)
	}
	dyn := p.Tasks[1].Tasks[0]
	if got := dyn.Conditions(); !reflect.DeepEqual(got, []string{"c"}) {
		t.Errorf("a dynamic include's when must not be inherited: %v", got)
	}
	base := p.Roles[0].Dependencies[0].Tasks[0]
	if got := base.Conditions(); !reflect.DeepEqual(got, []string{"app_enabled", "base_ok"}) {
		t.Errorf("dependency conditions = %v", got)
	}
	if got := base.EffectiveTags; !reflect.DeepEqual(got, []string{"app"}) {
		t.Errorf("dependency tags = %v", got)
	}
	var order []string
	for _, r := range p.RoleOrder() {
		order = append(order, r.Name)
	}
	// base once; app three times: its uses differ in tags, when or
	// params, and ansible-playbook runs each (it caches roles by all three).
	if !reflect.DeepEqual(order, []string{"base", "app", "app", "app"}) {
		t.Errorf("RoleOrder = %v", order)
	}
	if n := len(p.ListTasks()); n != 2*3+2 {
		t.Errorf("ListTasks: %d entries", n)
	}
	if p.Roles[0].Dependencies[0].Handlers[0].Handler != true {
		t.Error("role handlers must be marked Handler")
	}
}

func TestMetaAndKinds(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  tasks:
    - meta: flush_handlers
    - include_role: name=r
    - import_role: name=r
    - include_tasks: "{{ x }}.yml"
    - include: t.yml
      loop: [1]
    - debug: var=x
      tags: 7
`,
		"t.yml":                  "- debug: msg=x\n",
		"roles/r/tasks/main.yml": "- debug: msg=r\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	ts := pb.Plays[0].Tasks
	if ts[0].Module != "meta" || ts[0].RawParams() != "flush_handlers" {
		t.Errorf("meta = %q", ts[0].RawParams())
	}
	want := []Kind{KindModule, KindIncludeRole, KindImportRole, KindIncludeTasks, KindIncludeTasks, KindModule}
	for i, k := range want {
		if ts[i].Kind != k {
			t.Errorf("task %d: kind %v, want %v", i, ts[i].Kind, k)
		}
	}
	if ts[3].File != "" || ts[3].Tasks != nil {
		t.Error("a templated include must stay unresolved")
	}
	if ts[1].Target == nil || len(ts[1].Target.Tasks) != 1 {
		t.Error("a literal include_role is read")
	}
	if !reflect.DeepEqual(ts[5].Tags, []string{"7"}) {
		t.Errorf("numeric tag: %v", ts[5].Tags)
	}
}

func TestImportedPlaybookRolesAndTypos(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"site.yml":                       "- import_playbook: sub/app.yml\n",
		"sub/app.yml":                    "- hosts: all\n  roles: [local]\n  tasks:\n    - include_tasks: t.yml\n",
		"sub/t.yml":                      "- debug: msg=x\n",
		"sub/roles/local/tasks/main.yml": "- debug: msg=local\n",
		"typo.yml":                       "- shel: echo hi\n",
	})
	pb, err := Load(filepath.Join(dir, "site.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	if p := pb.Plays[0]; len(p.Roles) != 1 || len(p.Tasks[0].Tasks) != 1 {
		t.Fatalf("roles and includes beside an imported playbook: %+v", p)
	}
	_, err = Load(filepath.Join(dir, "typo.yml"), Options{Modules: testModules})
	if err == nil || !strings.Contains(err.Error(), `"shel" (did you mean "shell"?)`) {
		t.Fatalf("a bare task list with a typo reads as tasks: %v", err)
	}
}

func TestAllHandlers(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml":                    "- hosts: all\n  roles: [a]\n  tasks:\n    - import_role: name=b\n  handlers:\n    - name: play h\n      debug: msg=x\n",
		"roles/a/tasks/main.yml":    "- debug: msg=a\n",
		"roles/a/handlers/main.yml": "- name: a h\n  debug: msg=x\n",
		"roles/a/meta/main.yml":     "dependencies: [c]\n",
		"roles/b/handlers/main.yml": "- name: b h\n  debug: msg=x\n  listen: topic\n",
		"roles/c/handlers/main.yml": "- name: c h\n  debug: msg=x\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range pb.Plays[0].AllHandlers() {
		names = append(names, h.Name)
	}
	if !reflect.DeepEqual(names, []string{"c h", "a h", "b h", "play h"}) {
		t.Fatalf("AllHandlers = %v", names)
	}
}

func TestLoadFromFS(t *testing.T) {
	fsys := fstest.MapFS{
		"bundle/agent.yml":              {Data: []byte("- include_tasks: tasks/x.yml\n- import_role: name=r\n")},
		"bundle/tasks/x.yml":            {Data: []byte("- debug: msg=x\n")},
		"bundle/roles/r/tasks/main.yml": {Data: []byte("- debug: msg=r\n")},
		"bundle/broken.yml":             {Data: []byte("- import_tasks: nothere.yml\n")},
	}
	pb, err := Load("bundle/agent.yml", Options{Modules: testModules, FS: fsys, Hosts: "kvm"})
	if err != nil {
		t.Fatal(err)
	}
	ts := pb.Plays[0].Tasks
	if ts[0].File != "bundle/tasks/x.yml" || len(ts[0].Tasks) != 1 || ts[1].Target == nil {
		t.Fatalf("from an fs.FS: %+v", ts)
	}
	_, err = Load("bundle/broken.yml", Options{Modules: testModules, FS: fsys})
	if err == nil || !strings.HasPrefix(err.Error(), "bundle/broken.yml:1:3: could not find") {
		t.Fatalf("missing file in an FS: %v", err)
	}
}

func TestLevels(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  tasks:
    - block:
        - include_tasks: inc.yml
          when: flag
          ignore_errors: true
          vars: {v: 1}
      become: true
      when: outer
    - import_role: name=r
      when: imp
`,
		"inc.yml":                "- name: inner\n  fail: msg=x\n",
		"roles/r/tasks/main.yml": "- name: r task\n  debug: msg=r\n",
		"roles/r/meta/main.yml":  "dependencies: [{role: d, when: dep}]\n",
		"roles/d/tasks/main.yml": "- name: d task\n  debug: msg=d\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	ts := pb.Plays[0].Tasks
	inner := ts[0].Block[0].Tasks[0]
	lv := inner.Levels()
	// The include gives its vars only; the block above it everything.
	if len(lv) != 3 || lv[0].VarsOnly || !lv[1].VarsOnly || lv[2].VarsOnly || lv[1].Vars["v"] != 1 || !lv[0].Become.True() {
		t.Fatalf("levels of a task in a dynamic include: %+v", lv)
	}
	if got := inner.Conditions(); !reflect.DeepEqual(got, []string{"outer"}) {
		t.Errorf("conditions: %v", got)
	}
	d := ts[1].Target.Dependencies[0].Tasks[0]
	if got := d.Conditions(); !reflect.DeepEqual(got, []string{"imp", "dep"}) {
		t.Errorf("a dependency of an imported role: %v", got)
	}
}

// TestListTasksNames: --list-tasks names a named task by its name ("role
// : name" in a role) and an unnamed one by its action alone, role task
// or include_role, as ansible-playbook lists them.
func TestListTasksNames(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml": `- hosts: all
  roles: [r]
  tasks:
    - include_role: {name: r}
    - name: mine
      debug: msg=x
`,
		"roles/r/tasks/main.yml": "- debug: msg=x\n- name: named\n  debug: msg=y\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range pb.Plays[0].ListTasks() {
		got = append(got, l.Name)
	}
	if want := []string{"debug", "r : named", "include_role", "mine"}; !reflect.DeepEqual(got, want) {
		t.Errorf("listed %q, want %q", got, want)
	}
}

// TestWithLookupNames: a with_ loop loads when it names a lookup tender
// runs, one it refuses when run (url), or an old community one
// (flattened); another name is refused at load with a suggestion.
func TestWithLookupNames(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ok.yml": "- hosts: all\n  tasks:\n    - debug: var=item\n      with_items: [1]\n    - debug: var=item\n      with_url: [x]\n" +
			"    - debug: var=item\n      with_flattened: [[1]]\n",
		"bad.yml": "- hosts: all\n  tasks:\n    - debug: var=item\n      with_flatened: [[1]]\n",
	})
	if _, err := Load(filepath.Join(dir, "ok.yml"), Options{Modules: testModules}); err != nil {
		t.Fatal(err)
	}
	_, err := Load(filepath.Join(dir, "bad.yml"), Options{Modules: testModules})
	if err == nil || !strings.Contains(err.Error(), `with_flatened: there is no lookup named "flatened" (did you mean "flattened"?)`) {
		t.Fatalf("an unknown lookup: %v", err)
	}
}
