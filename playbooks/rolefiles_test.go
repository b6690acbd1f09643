package playbooks

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tender-sh/tender/internal/pydict"
)

// TestRoleVarsDirectory: a role's defaults/main and vars/main may be
// directories; their files are read sorted (subdirectories walked,
// hidden, backup and foreign files left out), later ones' variables
// replacing earlier ones', empty files counting for nothing. tasks/main
// as a directory is no tasks file.
func TestRoleVarsDirectory(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pb.yml":                                  "- hosts: all\n  roles: [r]\n  tasks:\n    - import_role: {name: r, vars_from: extra}\n",
		"roles/r/defaults/main/00.yml":            "a: 1\nb: 1\n",
		"roles/r/defaults/main/01.yml":            "",
		"roles/r/defaults/main/02/sub.yaml":       "c: 3\n",
		"roles/r/defaults/main/10.json":           `{"b": 2}`,
		"roles/r/defaults/main/.hidden.yml":       "a: hidden\n",
		"roles/r/defaults/main/03.yml~":           "a: backup\n",
		"roles/r/defaults/main/04.txt":            "a: text\n",
		"roles/r/defaults/main/noext":             "d: 4\n",
		"roles/r/vars/main.yml":                   "v: file\n",
		"roles/r/vars/main/ignored.yml":           "v: dir\n",
		"roles/r/vars/extra/1.yml":                "x: 1\n",
		"roles/r/vars/extra/2.yml":                "x: 2\ny: 2\n",
		"roles/r/tasks/main/not_a_tasks_file.yml": "- debug: msg=no\n",
		"roles/r/tasks/main.yaml":                 "- debug: msg=yes\n",
	})
	pb, err := Load(filepath.Join(dir, "pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	r := pb.Plays[0].Roles[0]
	if want := map[string]any{"a": 1, "b": 2, "c": 3, "d": 4}; !reflect.DeepEqual(plain(r.Defaults), want) {
		t.Errorf("defaults = %v, want %v", r.Defaults, want)
	}
	if got := pydict.Keys(r.Defaults); !reflect.DeepEqual(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("defaults' order = %v", got)
	}
	if want := map[string]any{"v": "file"}; !reflect.DeepEqual(plain(r.RoleVars), want) {
		t.Errorf("vars = %v, want %v (main.yml comes before main/)", r.RoleVars, want)
	}
	if len(r.Tasks) != 1 || r.Tasks[0].Args["msg"] != "yes" {
		t.Errorf("tasks = %+v, want main.yaml's", r.Tasks)
	}
	imp := pb.Plays[0].Tasks[0].Target
	if want := map[string]any{"x": 2, "y": 2}; imp == nil || !reflect.DeepEqual(plain(imp.RoleVars), want) {
		t.Errorf("vars_from a directory = %v, want %v", imp, want)
	}
}

// plain copies m without its recorded key order, for comparisons.
func plain(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for _, k := range pydict.Keys(m) {
		out[k] = m[k]
	}
	return out
}

// TestRoleNameWithSlash: a role name may be a path below a search
// directory (a dependency's too, below the directory of the role that
// needs it), keeping its name as written.
func TestRoleNameWithSlash(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"play/pb.yml":                               "- hosts: all\n  roles: [nested/a]\n",
		"play/roles/nested/a/meta/main.yml":         "dependencies: [{role: deeper/b}]\n",
		"play/roles/nested/a/tasks/main.yml":        "- debug: msg=a\n",
		"play/roles/nested/deeper/b/tasks/main.yml": "- debug: msg=b\n",
	})
	pb, err := Load(filepath.Join(dir, "play/pb.yml"), Options{Modules: testModules})
	if err != nil {
		t.Fatal(err)
	}
	a := pb.Plays[0].Roles[0]
	if a.Name != "nested/a" || len(a.Dependencies) != 1 {
		t.Fatalf("role = %q with %d dependencies", a.Name, len(a.Dependencies))
	}
	if b := a.Dependencies[0]; b.Name != "deeper/b" || b.Path != filepath.Join(dir, "play/roles/nested/deeper/b") {
		t.Errorf("dependency = %q at %s", b.Name, b.Path)
	}
}
