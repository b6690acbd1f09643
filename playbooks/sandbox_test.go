package playbooks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/sandbox"
)

// TestLoadObeysTheSandbox: with Options.Sandbox, Load reads only what the
// policy lets it (a symlink out of the playbook's directory is outside),
// refusals carry file:line:col, and so does a dynamic include resolved at
// run time.
func TestLoadObeysTheSandbox(t *testing.T) {
	root, err := filepath.EvalSymlinks(writeFiles(t, map[string]string{
		"pb/ok.yml":                     "- hosts: all\n  tasks:\n    - import_tasks: t.yml\n    - include_tasks: \"{{ f }}\"\n",
		"pb/t.yml":                      "- debug: msg=t\n",
		"pb/abs.yml":                    "- hosts: all\n  tasks:\n    - import_tasks: SECRET/s.yml\n",
		"pb/link.yml":                   "- hosts: all\n  tasks:\n    - import_tasks: out/s.yml\n",
		"pb/imp.yml":                    "- import_playbook: \"{{ lookup('file', 'SECRET/s.yml') }}\"\n",
		"secret/s.yml":                  "- debug: msg=secret\n",
		"secret/playbook.yml":           "- hosts: all\n  tasks: []\n",
		"pb/role.yml":                   "- hosts: all\n  tasks:\n    - import_role: name=SECRET/roles/r\n",
		"pb/roles.yml":                  "- hosts: all\n  roles: [SECRET/roles/r]\n",
		"secret/roles/r/tasks/main.yml": "- debug: msg=role\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	pb, secret := filepath.Join(root, "pb"), filepath.Join(root, "secret")
	for _, f := range []string{"abs.yml", "imp.yml", "role.yml", "roles.yml"} {
		p := filepath.Join(pb, f)
		b, _ := os.ReadFile(p)
		os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "SECRET", secret)), 0o644)
	}
	if err := os.Symlink("../secret", filepath.Join(pb, "out")); err != nil {
		t.Fatal(err)
	}
	opts := Options{Modules: testModules, Sandbox: &sandbox.Policy{Name: "sb.yml", Read: []string{pb}, Lookups: []string{"file"}}}
	for file, want := range map[string]string{
		"abs.yml":                "abs.yml:3:7: cannot read task file " + secret + "/s.yml: the controller sandbox sb.yml does not allow reading " + secret + "/s.yml",
		"link.yml":               "link.yml:3:7: cannot read task file " + pb + "/out/s.yml: the controller sandbox sb.yml does not allow reading " + pb + "/out/s.yml, which leads to " + secret + "/s.yml",
		"imp.yml":                "imp.yml:1:20: import_playbook path",
		"../secret/playbook.yml": "cannot read playbook: the controller sandbox sb.yml does not allow reading " + secret + "/playbook.yml",
		"role.yml":               secret + "/roles/r/tasks/main.yml: cannot read role file: the controller sandbox sb.yml does not allow reading " + secret + "/roles/r/tasks/main.yml",
		"roles.yml":              secret + "/roles/r/tasks/main.yml: cannot read role file: the controller sandbox sb.yml does not allow reading",
	} {
		_, err := Load(filepath.Join(pb, file), opts)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "sb.yml does not allow reading") {
			t.Errorf("%s: %v\nwant %q", file, err, want)
		}
	}
	p, err := Load(filepath.Join(pb, "ok.yml"), opts)
	if err != nil {
		t.Fatal(err)
	}
	inc := p.Plays[0].Tasks[1]
	if _, err := inc.Resolve("t.yml"); err != nil {
		t.Error(err)
	}
	if _, err := inc.Resolve(secret + "/s.yml"); err == nil || !strings.Contains(err.Error(), "ok.yml:4:7: ") || !strings.Contains(err.Error(), "does not allow reading "+secret+"/s.yml") {
		t.Errorf("dynamic include: %v", err)
	}
}

// TestLiteralIncludeOutsideTheSandbox: a literal include_tasks or
// include_role whose target the policy refuses is only a warning at load
// time (Ansible reads it when it runs), and the refusal comes back, at
// the include's line, each time the engine resolves it for a host; an
// include_tasks of a file that does not parse is refused likewise.
func TestLiteralIncludeOutsideTheSandbox(t *testing.T) {
	root, err := filepath.EvalSymlinks(writeFiles(t, map[string]string{
		"pb/pb.yml":                     "- hosts: all\n  tasks:\n    - include_tasks: SECRET/s.yml\n    - include_role: name=SECRET/roles/r\n    - include_tasks: broken.yml\n",
		"pb/broken.yml":                 "- debug: msg=x\n  bad: [\n",
		"secret/s.yml":                  "- debug: msg=secret\n",
		"secret/roles/r/tasks/main.yml": "- debug: msg=role\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	pb, secret := filepath.Join(root, "pb"), filepath.Join(root, "secret")
	p := filepath.Join(pb, "pb.yml")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "SECRET", secret)), 0o644)
	loaded, err := Load(p, Options{Modules: testModules, Sandbox: &sandbox.Policy{Name: "sb.yml", Read: []string{pb}}})
	if err != nil {
		t.Fatal(err)
	}
	if w := loaded.Warnings.Error(); !strings.Contains(w, "sb.yml does not allow reading "+secret+"/s.yml") ||
		!strings.Contains(w, "sb.yml does not allow reading "+secret+"/roles/r/tasks/main.yml") {
		t.Errorf("warnings: %v", w)
	}
	incs := loaded.Plays[0].Tasks
	for i, want := range []string{
		"pb.yml:3:7: cannot read task file " + secret + "/s.yml: the controller sandbox sb.yml does not allow reading " + secret + "/s.yml",
		"pb.yml:4:7: " + secret + "/roles/r/tasks/main.yml: cannot read role file: the controller sandbox sb.yml does not allow reading " + secret + "/roles/r/tasks/main.yml",
		"broken.yml:2:3: YAML syntax",
	} {
		name := includeName(incs[i])
		for range 2 { // every host that reaches it is told
			r, err := incs[i].Resolve(name)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got %v (resolved: %t)\nwant %q", name, err, r != nil, want)
			}
			var de *sandbox.DeniedError
			if i < 2 && !errors.As(err, &de) {
				t.Errorf("%s: %v is not a denial", name, err)
			}
		}
	}
}
