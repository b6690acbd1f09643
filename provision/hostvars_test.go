package provision_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// hostvars is a dict of every inventory host made entry by entry when read
// (see TestPlayMakesOnlyItsHosts): get, keys, length and attribute access
// see every host, and another host's templated variable renders in that
// host's scope.
func TestHostvarsIsADictOfEveryHost(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"hosts":             "h1\nh2\nh3\n",
		"host_vars/h2.yml":  "a: \"{{ colour | default('h2 has none') }}\"\n",
		"host_vars/h3.yml":  "colour: blue\n",
		"only_h1.yml":       "- hosts: h1\n  gather_facts: false\n  tasks:\n    - debug: msg=\"{{ hostvars.h3.colour }} {{ hostvars.get('h3').colour }} {{ hostvars | length }} {{ hostvars.keys() | list }}\"\n",
		"asks_about_h2.yml": "- hosts: h3\n  gather_facts: false\n  tasks:\n    - debug: msg=\"{{ hostvars.h2.a }} {{ hostvars['h2'].get('a') }} {{ hostvars.nohost is undefined }}\"\n",
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(pb string) (string, *provision.Recap, error) {
		inv, err := inventory.Load(filepath.Join(dir, "hosts"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := playbooks.Load(filepath.Join(dir, pb), playbooks.Options{Modules: builtin.Registry()})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		r := &provision.Runner{Inventory: inv, Modules: testModules(), Connections: transport.NewConnections().Add("ssh", local.Dialer{}).Add("local", local.Dialer{}),
			Events: report.Text(&out, true)}
		recap, err := r.Run(context.Background(), p)
		return out.String(), recap, err
	}
	for pb, want := range map[string]string{
		"only_h1.yml":       `"msg": "blue blue 4 ['h1', 'h2', 'h3', 'localhost']"`,
		"asks_about_h2.yml": `"msg": "h2 has none h2 has none True"`,
	} {
		out, recap, err := run(pb)
		if err != nil || recap.Failed() {
			t.Fatalf("%s: %v\n%s", pb, err, out)
		}
		if !strings.Contains(out, want) {
			t.Errorf("%s: want %s in\n%s", pb, want, out)
		}
	}
}
