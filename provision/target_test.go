package provision_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/tender-sh/tender/provision"
	"github.com/tender-sh/tender/provision/report"
	"github.com/tender-sh/tender/transport"
	"github.com/tender-sh/tender/transport/local"
)

// targetDialer connects locally and keeps the targets it was given.
type targetDialer struct {
	mu      sync.Mutex
	targets []transport.Target
}

func (d *targetDialer) Connect(ctx context.Context, t transport.Target) (transport.Conn, error) {
	d.mu.Lock()
	d.targets = append(d.targets, t)
	d.mu.Unlock()
	return local.Dialer{}.Connect(ctx, t)
}

// Each field of a Target becomes its Ansible variable; Vars pass through.
func TestTargetHostVars(t *testing.T) {
	tg := provision.Target{Name: "kvm-1", Address: "10.0.0.7", Port: 2222, User: "deploy", Password: "pw",
		KeyFile: "/keys/id", Become: true, BecomeMethod: "su", BecomeUser: "svc", BecomePassword: "bpw",
		Connection: "ssh", Vars: map[string]any{"ansible_python_interpreter": "/usr/bin/python3", "zone": "a", "ansible_perl_interpreter": "/bin/perl"}}
	got, err := tg.HostVars(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"ansible_host": "10.0.0.7", "ansible_port": 2222, "ansible_user": "deploy", "ansible_password": "pw",
		"ansible_ssh_private_key_file": "/keys/id", "ansible_become": true, "ansible_become_method": "su", "ansible_become_user": "svc",
		"ansible_become_password": "bpw", "ansible_connection": "ssh", "ansible_python_interpreter": "/usr/bin/python3", "zone": "a",
		"ansible_perl_interpreter": "/bin/perl"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if v, _ := (provision.Target{Name: "h"}).HostVars(nil); len(v) != 0 {
		t.Errorf("an empty target sets %v", v)
	}
}

// A misspelt ansible_* name, a field given twice, no name and a bad port
// are errors; a connection type's own variables are known when it is
// registered.
func TestTargetHostVarsRefuses(t *testing.T) {
	for _, c := range []struct {
		tg   provision.Target
		want string
	}{
		{provision.Target{Name: "h", Vars: map[string]any{"ansible_ssh_privat_key_file": "x"}}, `unknown variable ansible_ssh_privat_key_file (did you mean "ansible_ssh_private_key_file"?)`},
		{provision.Target{Name: "h", Vars: map[string]any{"ansible_zzzzzzzzzzzzzzzzzz": 1, "ansible_facts": 2}}, "unknown variable ansible_facts, ansible_zzzzzzzzzzzzzzzzzz"},
		{provision.Target{Name: "h", User: "a", Vars: map[string]any{"ansible_user": "b"}}, "ansible_user is given both as a field and in Vars"},
		{provision.Target{Vars: map[string]any{}}, "target has no name"},
		{provision.Target{Name: "h", Port: 70000}, "port 70000 is out of range"},
		{provision.Target{Name: "h", Vars: map[string]any{"ansible_docker_extra_args": "x"}}, "unknown variable ansible_docker_extra_args"},
	} {
		_, err := c.tg.HostVars(nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.tg.Vars, err, c.want)
		}
	}
	conns := transport.NewConnections().Add("docker", paramsDialer{})
	if _, err := (provision.Target{Name: "h", Vars: map[string]any{"ansible_docker_extra_args": "x"}}).HostVars(conns); err != nil {
		t.Errorf("a registered type's variable: %v", err)
	}
}

// paramsDialer is a connection type with one option of its own.
type paramsDialer struct{ local.Dialer }

func (paramsDialer) Params() transport.ConnParams {
	return transport.ConnParams{Options: []transport.ConnOption{{Name: "extra", Vars: []string{"ansible_docker_extra_args"}}}}
}

// A target added to a Runner reaches its connection with its address,
// user and key held in memory; the key is in no variable, event or
// result, though a task dumps every variable the host has.
func TestRunnerAddTargetKeyInMemory(t *testing.T) {
	secret := []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key-but-secret\n-----END OPENSSH PRIVATE KEY-----\n")
	d := &targetDialer{}
	var out bytes.Buffer
	r := &provision.Runner{Modules: testModules(), Events: report.Text(&out, true), Verbosity: 3}
	withSSH(r, d)
	for _, tg := range []provision.Target{
		{Name: "kvm-1", Address: "127.0.0.1", Port: 2200, User: "root", Key: transport.Key{PEM: secret}},
		{Name: "kvm-2", Address: "127.0.0.2", User: "admin"},
	} {
		if err := r.AddTarget(tg); err != nil {
			t.Fatal(err)
		}
	}
	_, p := loadPlay(t, "", `
- hosts: all
  gather_facts: false
  tasks:
    - command: "true"
    - debug: var=hostvars[inventory_hostname]
    - debug: msg="{{ vars | string }}"
`)
	recap, err := r.Run(context.Background(), p)
	if err != nil || recap.Stats["kvm-1"].Failed+recap.Stats["kvm-2"].Failed != 0 {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	byName := map[string]transport.Target{}
	for _, tg := range d.targets {
		byName[tg.Name] = tg
	}
	k1, k2 := byName["kvm-1"], byName["kvm-2"]
	if k1.Host != "127.0.0.1" || k1.Port != 2200 || k1.User != "root" || len(k1.Keys) != 1 || !bytes.Equal(k1.Keys[0].PEM, secret) {
		t.Errorf("kvm-1 connected with %+v", k1)
	}
	if k2.Host != "127.0.0.2" || k2.User != "admin" || len(k2.Keys) != 0 {
		t.Errorf("kvm-2 connected with %+v", k2)
	}
	if !strings.Contains(out.String(), "127.0.0.1") {
		t.Fatalf("the dump shows no variables:\n%s", out.String())
	}
	if strings.Contains(out.String(), "not-a-real-key") || strings.Contains(out.String(), "PRIVATE KEY") {
		t.Errorf("the key shows in the output:\n%s", out.String())
	}
	// Adding the target again without a key drops it.
	if err := r.AddTarget(provision.Target{Name: "kvm-1", Address: "127.0.0.1"}); err != nil || len(r.Keys["kvm-1"]) != 0 {
		t.Errorf("re-added without a key: %v %v", err, r.Keys)
	}
	if err := r.AddTarget(provision.Target{Name: "x", Vars: map[string]any{"ansible_hots": "a"}}); err == nil || r.Inventory.Host("x") != nil {
		t.Errorf("a bad target was added: %v", err)
	}
}
