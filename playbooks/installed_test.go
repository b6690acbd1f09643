package playbooks

import (
	"path/filepath"
	"strings"
	"testing"
)

// installedCollection is a collection beside a playbook
// (collections/ansible_collections/acme/tools) and one in a collections
// path (more/ansible_collections/other/kit).
var installedCollection = map[string]string{
	"collections/ansible_collections/acme/tools/plugins/modules/hello.py": "#!/usr/bin/python\n",
	"collections/ansible_collections/acme/tools/plugins/modules/sync.py":  "#!/usr/bin/python\n",
	"collections/ansible_collections/acme/tools/plugins/action/sync.py":   "# an action plugin\n",
	"collections/ansible_collections/acme/tools/meta/runtime.yml": `plugin_routing:
  modules:
    old_hello: {redirect: acme.tools.hello}
    gone: {tombstone: {warning_text: Use acme.tools.hello.}}
`,
	"collections/ansible_collections/acme/tools/roles/web/tasks/main.yml":  "- hello: {}\n- debug: {msg: hi}\n",
	"collections/ansible_collections/acme/tools/roles/web/meta/main.yml":   "dependencies: [base]\n",
	"collections/ansible_collections/acme/tools/roles/base/tasks/main.yml": "- hello: {}\n",
	"more/ansible_collections/other/kit/plugins/modules/tool.py":           "#!/usr/bin/python\n",
}

// TestInstalledCollections: a module named by its FQCN, through the
// collections keyword or a runtime.yml redirect, is the collection's
// file; a collection's role is named by its FQCN, finds its own modules
// and dependencies unqualified, and its tasks fall back to
// ansible.builtin.
func TestInstalledCollections(t *testing.T) {
	files := map[string]string{"pb.yml": `- hosts: all
  roles: [acme.tools.web]
  tasks:
    - acme.tools.hello: {}
    - acme.tools.old_hello: {}
    - other.kit.tool: {}
    - hello: {}
      collections: [acme.tools]
    - acme.tools.sync: {}
`}
	for k, v := range installedCollection {
		files[k] = v
	}
	dir := writeFiles(t, files)
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: restricted(t, "debug", LibraryModule),
		CollectionsPaths: []string{filepath.Join(dir, "more")}})
	if err != nil {
		t.Fatal(err)
	}
	p := pb.Plays[0]
	hello := filepath.Join(dir, "collections/ansible_collections/acme/tools/plugins/modules/hello.py")
	for i, want := range []string{hello, hello, filepath.Join(dir, "more/ansible_collections/other/kit/plugins/modules/tool.py"), hello} {
		if got := p.Tasks[i].ModuleFile; got != want {
			t.Errorf("task %d (%s): module file %q, want %q", i, p.Tasks[i].Action, got, want)
		}
	}
	if p.Tasks[1].Module != "acme.tools.hello" {
		t.Errorf("a redirected module is named %q", p.Tasks[1].Module)
	}
	if !strings.HasSuffix(p.Tasks[4].ActionPlugin, "acme/tools/plugins/action/sync.py") || p.Tasks[4].ModuleFile != "" {
		t.Errorf("a module with an action plugin: %+v", p.Tasks[4])
	}
	r := p.Roles[0]
	if r.Name != "acme.tools.web" || r.Collection != "acme.tools" {
		t.Fatalf("role %q of %q", r.Name, r.Collection)
	}
	if r.Tasks[0].ModuleFile != hello || r.Tasks[1].Module != "debug" {
		t.Errorf("the role's tasks: %+v, %+v", r.Tasks[0], r.Tasks[1])
	}
	if len(r.Dependencies) != 1 || r.Dependencies[0].Name != "acme.tools.base" || r.Dependencies[0].Tasks[0].ModuleFile != hello {
		t.Errorf("the role's dependency: %+v", r.Dependencies)
	}
}

// TestCollectionErrors: a removed module is the collection's error for
// it, where the task names it; a module a collection does not hold, or
// a collection not installed, is Ansible's "couldn't resolve"; a
// collection's role does not see library/ (its list ends with
// ansible.builtin).
func TestCollectionErrors(t *testing.T) {
	for name, c := range map[string]struct{ pb, want string }{
		"removed":         {"- hosts: all\n  tasks:\n    - acme.tools.gone: {}\n", "pb.yml:3:7: acme.tools.gone has been removed. Use acme.tools.hello."},
		"removed builtin": {"- hosts: all\n  tasks:\n    - bigip_facts: {}\n", "pb.yml:3:7: ansible.builtin.bigip_facts has been removed."},
		"missing module":  {"- hosts: all\n  tasks:\n    - acme.tools.nosuch: {}\n", `couldn't resolve module/action "acme.tools.nosuch"`},
		"no collection":   {"- hosts: all\n  tasks:\n    - nosuch.coll.mod: {}\n", `couldn't resolve module/action "nosuch.coll.mod"`},
		"missing role":    {"- hosts: all\n  roles: [acme.tools.nosuch]\n", `the role "acme.tools.nosuch" was not found`},
		"library hidden":  {"- hosts: all\n  roles: [acme.tools.lib]\n", `couldn't resolve module/action "libmod"`},
	} {
		files := map[string]string{"pb.yml": c.pb, "library/libmod.py": "#!/usr/bin/python\n",
			"collections/ansible_collections/acme/tools/roles/lib/tasks/main.yml": "- libmod: {}\n"}
		for k, v := range installedCollection {
			files[k] = v
		}
		dir := writeFiles(t, files)
		_, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: restricted(t, "debug", LibraryModule)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// TestCollectionPlaybook: import_playbook of ns.coll.name (with or
// without its extension, in a subdirectory) is the collection's
// playbooks/name.yml.
func TestCollectionPlaybook(t *testing.T) {
	files := map[string]string{
		"pb.yml": "- import_playbook: acme.tools.site\n- import_playbook: acme.tools.ops.deploy.yaml\n",
		"collections/ansible_collections/acme/tools/playbooks/site.yml":        "- hosts: web\n  tasks: []\n",
		"collections/ansible_collections/acme/tools/playbooks/ops/deploy.yaml": "- hosts: db\n  tasks: []\n",
	}
	dir := writeFiles(t, files)
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: restricted(t, "debug")})
	if err != nil {
		t.Fatal(err)
	}
	if len(pb.Plays) != 2 || pb.Plays[0].Hosts != "web" || pb.Plays[1].Hosts != "db" {
		t.Errorf("plays: %+v", pb.Plays)
	}
	dir = writeFiles(t, map[string]string{"pb.yml": "- import_playbook: acme.tools.nosuch\n"})
	if _, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: restricted(t, "debug")}); err == nil {
		t.Error("a playbook no collection has loaded")
	}
}

// TestPluginFiles: a short name's plugins are looked for in
// KIND_plugins beside the playbook, in its roles, then in the configured
// plugin paths; a fully qualified one (or a short one ansible.builtin
// routes) in its collection.
func TestPluginFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml":                      "- hosts: all\n  roles: [r]\n  tasks:\n    - debug: {msg: '{{ item }}'}\n      with_conf: [a]\n    - act: {}\n",
		"filter_plugins/a.py":         "",
		"roles/r/tasks/main.yml":      "[]\n",
		"roles/r/filter_plugins/b.py": "",
		"conf/filter/c.py":            "",
		"conf/lookup/conf.py":         "",
		"conf/action/act.py":          "",
		"more/ansible_collections/community/general/plugins/filter/jq.py": "",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: restricted(t, "debug", LibraryModule),
		CollectionsPaths: []string{filepath.Join(dir, "more")},
		PluginPaths: map[string][]string{"filter": {filepath.Join(dir, "conf/filter")}, "lookup": {filepath.Join(dir, "conf/lookup")},
			"action": {filepath.Join(dir, "conf/action")}}})
	if err != nil {
		t.Fatal(err)
	}
	_, files := pb.PluginFiles("filter", "x")
	var got []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.Path)
		got = append(got, rel)
	}
	if strings.Join(got, " ") != "filter_plugins/a.py roles/r/filter_plugins/b.py conf/filter/c.py" {
		t.Errorf("filter files: %v", got)
	}
	if name, files := pb.PluginFiles("filter", "json_query"); name != "community.general.json_query" || len(files) != 1 || files[0].Prefix != "community.general." {
		t.Errorf("json_query: %s %+v", name, files)
	}
	if _, file, _, ok := pb.LookupPlugin("conf"); !ok || !strings.HasSuffix(file, "conf/lookup/conf.py") {
		t.Errorf("a configured lookup: %q %v", file, ok)
	}
	if act := pb.Plays[0].Tasks[1]; !strings.HasSuffix(act.ActionPlugin, "conf/action/act.py") {
		t.Errorf("a configured action plugin: %+v", act)
	}
}
