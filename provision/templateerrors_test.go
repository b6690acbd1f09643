package provision_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/inventory"
	"github.com/tender-sh/tender/playbooks"
	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/tasks/builtin"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// TestTemplateErrorsAsAnsible: a task whose arguments fail to render
// fails as ansible-playbook's does (testdata/templateerrors/want.txt,
// recorded by its gen.sh): a Python TypeError as an unexpected templating
// type error naming the template, a ValueError as the args field's
// invalid value (in a loop's items, the worker's unexpected failure),
// other exceptions with no message but the exception.
func TestTemplateErrorsAsAnsible(t *testing.T) {
	dir, err := filepath.Abs("testdata/templateerrors")
	if err != nil {
		t.Fatal(err)
	}
	hosts := filepath.Join(t.TempDir(), "hosts")
	if err := os.WriteFile(hosts, []byte("localhost ansible_connection=local\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inv, err := inventory.Load(hosts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := playbooks.Load(filepath.Join(dir, "pb.yml"), playbooks.Options{Modules: builtin.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	r := &provision.Runner{Inventory: inv, Modules: builtin.Registry(),
		Connections: transport.NewConnections().Add("local", local.Dialer{}),
		Events: func(e provision.Event) {
			if e.Kind != provision.HostResult || e.IsItem {
				return
			}
			msg, _ := e.Result["msg"].(string)
			exc, _ := e.Result["exception"].(string)
			lines := strings.Split(strings.TrimSpace(exc), "\n")
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode([]any{e.Status == provision.StatusFailed, strings.ReplaceAll(msg, dir+"/", "@DIR@/"), lines[len(lines)-1]})
			got = append(got, strings.TrimSuffix(b.String(), "\n"))
		}}
	if _, err := r.Run(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for i := 0; sc.Scan(); i++ {
		n++
		if i >= len(got) {
			t.Fatalf("tender reported %d tasks, ansible-playbook more", len(got))
		}
		if got[i] != sc.Text() {
			t.Errorf("task %d:\n tender %s\nansible %s", i+1, got[i], sc.Text())
		}
	}
	if n != len(got) || n == 0 {
		t.Errorf("tender reported %d tasks, ansible-playbook %d", len(got), n)
	}
}
