package provision_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// TestModuleUsed: at -vvv the text output names the module file a task
// runs (Ansible's "Using module file"), and says when tender's own module
// stands for a collection's; at the default verbosity it says nothing.
func TestModuleUsed(t *testing.T) {
	conf := "app.ini"
	dir, inv, pb := loadTree(t, map[string]string{
		"hosts":            "here ansible_connection=local\n",
		"library/hello.sh": "#!/bin/sh\n# WANT_JSON\necho '{\"changed\": false, \"msg\": \"hi\"}'\n",
		"pb.yml": `- hosts: all
  gather_facts: false
  tasks:
    - hello: {}
    - community.general.ini_file: {path: "{{ playbook_dir }}/` + conf + `", section: s, option: o, value: v}
    - ini_file: {path: "{{ playbook_dir }}/` + conf + `", section: s, option: o, value: v}
`,
	})
	for _, verbosity := range []int{0, 3} {
		var out bytes.Buffer
		r := &provision.Runner{Inventory: inv, Modules: builtin.Registry(), Verbosity: verbosity,
			Connections: transport.NewConnections().Add("local", local.Dialer{}),
			Events:      report.TextWith(&out, report.TextOptions{Verbosity: verbosity})}
		if _, err := r.Run(context.Background(), pb); err != nil {
			t.Fatal(err)
		}
		lines := []string{"Using module file " + filepath.Join(dir, "library/hello.sh"),
			"Using tender's own ini_file module for community.general.ini_file (community.general's is not run)"}
		for _, l := range lines {
			if got := strings.Count(out.String(), l+"\n"); got != map[int]int{0: 0, 3: 1}[verbosity] {
				t.Errorf("-v×%d: %q printed %d times:\n%s", verbosity, l, got, out.String())
			}
		}
		if strings.Count(out.String(), "Using ") != map[int]int{0: 0, 3: 2}[verbosity] {
			t.Errorf("-v×%d: a module line for tender's own ini_file under its own name:\n%s", verbosity, out.String())
		}
	}
}
