package inventory

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func writeScript(t *testing.T, dir, name, body string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScriptInventory: an executable source is run as Ansible's script
// plugin runs it: --list gives groups (hosts/vars/children, a bare host
// list, or a host's variables under its name), _meta.hostvars the hosts'
// variables, else --host NAME for each host (JSON or YAML); its stderr is
// shown without failing. The same inventory, recorded from
// ansible-inventory 2.14, is in the comments.
func TestScriptInventory(t *testing.T) {
	dir := t.TempDir()
	p := writeScript(t, dir, "inv.sh", `#!/bin/sh
case "$1" in
--list) echo '{"web": ["w1", "w2"], "db": {"hosts": ["d1"], "vars": {"n": 1.5, "big": 12345678901234567890}, "children": ["web"]}, "solo": {"z": 9}}'; echo noise >&2 ;;
--host) case "$2" in w1) echo '{"hv": "w1v"}' ;; w2) echo 'hv: yaml' ;; *) echo '{}' ;; esac ;;
esac
`, 0o755)
	inv, err := LoadWith(Options{Scripts: true}, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := inv.Errors(); !reflect.DeepEqual(got, []string{"noise"}) {
		t.Errorf("shown stderr: %q", got)
	}
	want := map[string][]string{"all": {"d1", "solo", "w1", "w2"}, "db": {"d1", "w1", "w2"}, "web": {"w1", "w2"}, "solo": {"solo"}, "ungrouped": {}}
	for g, hosts := range want {
		var got []string
		for _, h := range inv.Group(g).AllHosts() {
			got = append(got, h.Name)
		}
		slices.Sort(got)
		if strings.Join(got, ",") != strings.Join(hosts, ",") {
			t.Errorf("group %s: %v, want %v", g, got, hosts)
		}
	}
	if v := inv.Host("w1").Vars["hv"]; v != "w1v" {
		t.Errorf("w1 hv = %v", v)
	}
	if v := inv.Host("w2").Vars["hv"]; v != "yaml" {
		t.Errorf("w2 hv = %v", v)
	}
	if v := inv.Group("solo").Vars["z"]; v != 9 {
		t.Errorf("solo z = %v (%T)", v, v)
	}
	if v := inv.Group("db").Vars["n"]; v != 1.5 {
		t.Errorf("db n = %v (%T)", v, v)
	}
	if v := inv.Host("d1").Source; v != p {
		t.Errorf("source %q", v)
	}
}

// TestScriptInventoryFailures: Ansible's words for a script that fails,
// prints no JSON or no dict; a --host that prints nothing (which Ansible
// reads as None and refuses); an executable INI file still reads as INI;
// without Scripts an executable is read as a static file.
func TestScriptInventoryFailures(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, body, msg string }{
		{"fails.sh", "#!/bin/sh\necho boom >&2; exit 3\n", "Inventory script (DIR/fails.sh) had an execution error: boom\n "},
		{"notjson.sh", "#!/bin/sh\necho not json\n", "failed to parse executable inventory script results from DIR/notjson.sh"},
		{"list.sh", "#!/bin/sh\necho '[1, 2]'\n", "failed to parse executable inventory script results from DIR/list.sh: needs to be a json dict"},
		{"nohost.sh", "#!/bin/sh\n[ \"$1\" = --list ] && echo '{\"g\": [\"a\"]}'\n", "Invalid data from file, expected dictionary and got:\n\nNone"},
		{"badhosts.sh", "#!/bin/sh\necho '{\"g\": {\"hosts\": \"a\"}}'\n", "You defined a group 'g' with bad data for the host list:\n {'hosts': 'a'}"},
		{"badmeta.sh", "#!/bin/sh\necho '{\"g\": [\"a\"], \"_meta\": {\"hostvars\": {\"a\": [1]}}}'\n", "Invalid data from file, expected dictionary and got:\n\n[1]"},
	} {
		p := writeScript(t, dir, c.name, c.body, 0o755)
		_, err := LoadWith(Options{Scripts: true}, p)
		if err == nil || !strings.Contains(err.Error(), strings.ReplaceAll(c.msg, "DIR", dir)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	ini := writeScript(t, dir, "hosts", "[g]\nh1\n", 0o755)
	if inv, err := LoadWith(Options{Scripts: true}, ini); err != nil || inv.Host("h1") == nil {
		t.Errorf("an executable INI file: %v", err)
	}
	sh := writeScript(t, dir, "static.sh", "#!/bin/sh\necho '{\"g\": [\"a\"]}'\n", 0o755)
	if _, err := LoadWith(Options{}, sh); err == nil || strings.Contains(err.Error(), "script") {
		t.Errorf("without Scripts the file is read as INI: %v", err)
	}
}

// TestScriptInventoryCancelled: a script that does not end is stopped
// with the context (Ctrl-C).
func TestScriptInventoryCancelled(t *testing.T) {
	dir := t.TempDir()
	p := writeScript(t, dir, "slow.sh", "#!/bin/sh\nexec sleep 30\n", 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := LoadWith(Options{Scripts: true, Context: ctx}, p)
	if err == nil || time.Since(start) > 10*time.Second {
		t.Fatalf("%v after %v", err, time.Since(start))
	}
}

// TestInventoryPlugins: INVENTORY_ENABLED's order and names.
// advanced_host_list expands ranges in a host list, host_list does not;
// a file no enabled plugin takes fails; an unknown plugin is refused.
func TestInventoryPlugins(t *testing.T) {
	inv, err := LoadWith(Options{Plugins: []string{"advanced_host_list"}}, "local[0:2],other:2222,")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range inv.Group("all").AllHosts() {
		names = append(names, h.Name)
	}
	if strings.Join(names, ",") != "local0,local1,local2,other" || inv.Host("other").Vars["ansible_port"] != 2222 {
		t.Errorf("advanced_host_list: %v %v", names, inv.Host("other").Vars)
	}
	if _, err := LoadWith(Options{Plugins: []string{"advanced_host_list"}}, "local[1:j],"); err == nil ||
		err.Error() != "Failed to parse local[1:j], with advanced_host_list plugin: Invalid data from string, could not parse: invalid literal for int() with base 10: 'j'" {
		t.Errorf("a range Python cannot read: %v", err)
	}
	if inv, err = LoadWith(Options{Plugins: []string{"advanced_host_list"}}, "local[3:],"); err != nil || inv.Host("local[3:]") == nil ||
		!reflect.DeepEqual(inv.Notes(), []string{"Unable to parse address from hostname, leaving unchanged: host range must specify end value"}) {
		t.Errorf("a range without an end stays as written: %v %v", err, inv.Notes())
	}
	if inv, err = LoadWith(Options{}, "local[0:2],"); err != nil || inv.Host("local[0:2]") == nil {
		t.Errorf("host_list keeps a range as written: %v", err)
	}
	dir := t.TempDir()
	f := writeScript(t, dir, "hosts.ini", "h1\n", 0o644)
	if _, err := LoadWith(Options{Plugins: []string{"ansible.builtin.advanced_host_list"}}, f); err == nil || !strings.Contains(err.Error(), "no enabled inventory plugin") {
		t.Errorf("a file with only host-list plugins: %v", err)
	}
	if _, err := LoadWith(Options{Plugins: []string{"host_list"}}, "a,b"); err != nil {
		t.Error(err)
	}
	if _, err := LoadWith(Options{Plugins: []string{"ini"}}, "a,b"); err == nil {
		t.Error("a host list with no host-list plugin enabled is refused")
	}
	if _, err := LoadWith(Options{Plugins: []string{"amazon.aws.aws_ec2"}}, f); err == nil || !strings.Contains(err.Error(), "aws_ec2") {
		t.Errorf("an unknown plugin: %v", err)
	}
}
