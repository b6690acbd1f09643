package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// runCLI runs tender with args; the warnings on stderr are given back on
// one line each, as they were before the display wrapped them
// (TestWarningsWrap checks the wrapping).
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"tender"}, args...), &out, &errb)
	return code, out.String(), unwrapWarnings(errb.String())
}

// unwrapWarnings joins the lines of each "[WARNING]: " paragraph that the
// display wrapped: up to a blank line or one that starts a message of its
// own ("[", "ERROR"); a line broken after a hyphen joins without a space.
func unwrapWarnings(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	in := false
	for _, l := range lines {
		starts := l == "" || strings.HasPrefix(l, "[") || strings.HasPrefix(l, "ERROR")
		if in && !starts {
			prev := out[len(out)-1]
			if strings.HasSuffix(prev, "-") {
				out[len(out)-1] = prev + l
			} else {
				out[len(out)-1] = prev + " " + l
			}
			continue
		}
		in = strings.HasPrefix(l, "[WARNING]: ")
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestWarningsWrap: warnings are laid out as Ansible's display lays them
// out off a terminal: wrapped to 79 columns (recorded from
// ansible-playbook 2.14 with the same inventory).
func TestWarningsWrap(t *testing.T) {
	var out, errb bytes.Buffer
	run([]string{"tender", "play", "-i", "/nonexistent/none.ini", "--syntax-check", "../../e2e/examples/site.yml"}, &out, &errb)
	want := "[WARNING]: provided hosts list is empty, only localhost is available. Note that\nthe implicit localhost does not match 'all'\n"
	if !strings.Contains(errb.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errb.String())
	}
}

func TestUnknownCommandFails(t *testing.T) {
	for _, args := range [][]string{{"no-such-command"}, {"--bogus-flag"}} {
		code, _, errOut := runCLI(t, args...)
		if code == 0 {
			t.Errorf("%v must fail, got code 0", args)
		}
		if !strings.Contains(errOut, strings.TrimLeft(args[0], "-")) {
			t.Errorf("%v: stderr should name it: %q", args, errOut)
		}
	}
}

func TestErrorsNameTheProblem(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.yml"
	if err := os.WriteFile(bad, []byte("- hosts: all\n  tasks:\n    - comand: echo hi\n    - shell: echo\n      loop: [1]\n      with_items: [2]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown := dir + "/unknown.yml"
	if err := os.WriteFile(unknown, []byte("- hosts: all\n  tasks:\n    - community.general.no_such_module: conn_name=eth0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"play", "--syntax-check", bad}, 4, []string{
			bad + `:3:7: couldn't resolve module/action "comand" (did you mean "command"?)`,
			bad + ":6:7: the loop and with_items keywords cannot be used together",
		}},
		{[]string{"inventory", "host", "-i", "../../e2e/examples/hosts.ini", "nohost"}, 1, []string{`nohost`}},
		// As ansible-inventory: a source that is not there is warned
		// about, and the inventory is empty.
		{[]string{"inventory", "list", "-i", dir + "/missing.ini"}, 0, []string{"Unable to parse " + dir + "/missing.ini as an inventory source"}},
		{[]string{"play", "--list-hosts", "-l", "zzz", "-i", "../../e2e/examples/hosts.ini", "../../e2e/examples/site.yml"}, 1, []string{
			"Could not match supplied host pattern, ignoring: zzz", "leaves us with no hosts to target"}},
		{[]string{"play", "-i", "../../e2e/examples/hosts.ini", unknown}, 4, []string{unknown + `:3:7: couldn't resolve module/action "community.general.no_such_module"`}},
		{[]string{"inventory", "host", "-i", "../../e2e/examples/hosts.ini"}, 5, []string{"HOST"}},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, code, c.code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errOut, w)
			}
		}
	}
}

func TestFlagsAfterArguments(t *testing.T) {
	code, out, errOut := runCLI(t, "play", "../../e2e/examples/site.yml", "--list-tasks", "-i", "../../e2e/examples/hosts.ini", "-t", "check")
	if code != 0 || !strings.Contains(out, "Check the agent answers on its port") || strings.Contains(out, "Create the agent") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "inventory", "host", "db1", "-i", "../../e2e/examples/hosts.ini")
	if code != 0 || !strings.Contains(out, `"agent_port": 7071`) {
		t.Fatalf("inventory host with -i after the host: exit %d\n%s", code, out)
	}
}

// TestDefaultInventoryMissing: as ansible-playbook, a missing default
// source (/etc/ansible/hosts) is no warning of its own, only "No inventory
// was parsed", which INVENTORY_UNPARSED_WARNING=false silences; a source
// the user names that is missing is warned about.
func TestDefaultInventoryMissing(t *testing.T) {
	if _, err := os.Stat("/etc/ansible/hosts"); err == nil {
		t.Skip("/etc/ansible/hosts exists here")
	}
	t.Setenv("ANSIBLE_INVENTORY", "")
	os.Unsetenv("ANSIBLE_INVENTORY")
	_, _, errOut := runCLI(t, "inventory", "list")
	if strings.Contains(errOut, "Unable to parse") || !strings.Contains(errOut, "No inventory was parsed") {
		t.Errorf("default source: %q", errOut)
	}
	t.Setenv("ANSIBLE_INVENTORY", "/nonexistent-src")
	if _, _, errOut = runCLI(t, "inventory", "list"); !strings.Contains(errOut, "Unable to parse /nonexistent-src as an inventory source") {
		t.Errorf("a named source: %q", errOut)
	}
	t.Setenv("ANSIBLE_INVENTORY_UNPARSED_WARNING", "false")
	if _, _, errOut = runCLI(t, "inventory", "list"); strings.Contains(errOut, "No inventory was parsed") {
		t.Errorf("INVENTORY_UNPARSED_WARNING=false: %q", errOut)
	}
}

// TestEmptyInventoryWarning: a play run on an inventory without hosts
// warns that only the implicit localhost is there, as ansible-playbook
// does, unless LOCALHOST_WARNING is off.
func TestEmptyInventoryWarning(t *testing.T) {
	dir := t.TempDir()
	pb := dir + "/pb.yml"
	if err := os.WriteFile(pb, []byte("- hosts: localhost\n  gather_facts: false\n  tasks:\n    - debug: msg=x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const w = "provided hosts list is empty, only localhost is available. Note that the implicit localhost does not match 'all'"
	if code, _, errOut := runCLI(t, "play", "-i", dir+"/none.ini", pb); code != 0 || !strings.Contains(errOut, w) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	t.Setenv("ANSIBLE_LOCALHOST_WARNING", "false")
	if _, _, errOut := runCLI(t, "play", "-i", dir+"/none.ini", pb); strings.Contains(errOut, w) {
		t.Errorf("LOCALHOST_WARNING=false: %q", errOut)
	}
}
