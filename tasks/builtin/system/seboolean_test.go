package system

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// sebooleanHost fakes, under a temporary root, a host with SELinux:
// selinuxfs's booleans, the config, the policy's renamed booleans, a
// store whose kernel policy holds the persistent values, and a
// setsebool that records its arguments (and fails when told to).
func sebooleanHost(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	put := func(name, text string, mode os.FileMode) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	put("proc/mounts", "proc /proc proc rw 0 0\nselinuxfs /sys/fs/selinux selinuxfs rw,nosuid,noexec 0 0\n", 0o644)
	put("sys/fs/selinux/commit_pending_bools", "", 0o644)
	for name, v := range map[string]string{"web_on": "1 1", "web_off": "0 0", "web_off_too": "0 0", "only_running": "0 0", "renamed_new": "0 0"} {
		put("sys/fs/selinux/booleans/"+name, v, 0o644)
	}
	put("etc/selinux/config", "# the policy\nSELINUX=permissive\n  selinuxtype=mine  \n", 0o644)
	put("etc/selinux/mine/booleans.subs_dist", "# old new\nrenamed_old renamed_new\nslashed ../x\n", 0o644)
	// The kernel policy: booleans are three little-endian u32 (value,
	// state, length) and the name; "only_running" appears only inside a
	// longer string, and "web_off" first as the tail of another name and
	// then as the head of one.
	var pk bytes.Buffer
	pk.WriteString("SE Linux junk xonly_running junk aweb_off")
	record := func(value, state uint32, name string) {
		for _, u := range []uint32{value, state, uint32(len(name))} {
			binary.Write(&pk, binary.LittleEndian, u)
		}
		pk.WriteString(name)
	}
	record(7, 1, "web_on")
	record(9, 1, "web_off_too")
	record(8, 0, "web_off")
	record(10, 0, "renamed_new")
	put("var/lib/selinux/mine/active/policy.kern", pk.String(), 0o600)
	put("usr/sbin/setsebool", "#!/bin/sh\necho \"$@\" >\""+root+"/setsebool.args\"\n[ ! -e \""+root+"/fail\" ] || { echo 'could not commit' >&2; exit 3; }\n", 0o755)
	return root
}

// TestSeboolean runs seboolean's script on the fake host: running and
// persistent values read, compared and set (or only reported in check
// mode), renamed booleans followed, and each of the module's failures.
func TestSeboolean(t *testing.T) {
	read := func(root, name string) string {
		b, _ := os.ReadFile(filepath.Join(root, name))
		return string(b)
	}
	run := func(root string, check bool, args tasks.Args) tasks.Result {
		t.Helper()
		env, _ := modtest.TestEnv(t, t.TempDir(), nil)
		env.Check = check
		r, err := runSeboolean(context.Background(), env, args, root)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	root := sebooleanHost(t)
	r := run(root, true, tasks.Args{"name": "web_off", "state": true})
	if r.Failed || !r.Changed || read(root, "sys/fs/selinux/booleans/web_off") != "0 0" {
		t.Fatalf("check mode: %+v, value %q", r, read(root, "sys/fs/selinux/booleans/web_off"))
	}
	r = run(root, false, tasks.Args{"name": "web_off", "state": "yes"})
	if r.Failed || !r.Changed || read(root, "sys/fs/selinux/booleans/web_off") != "1" || read(root, "sys/fs/selinux/commit_pending_bools") != "1" {
		t.Fatalf("set: %+v, value %q", r, read(root, "sys/fs/selinux/booleans/web_off"))
	}
	if r.Data["name"] != "web_off" || r.Data["state"] != true || r.Data["persistent"] != false {
		t.Errorf("result = %v", r.Data)
	}
	if r = run(root, false, tasks.Args{"name": "web_on", "state": true}); r.Failed || r.Changed {
		t.Errorf("already on: %+v", r)
	}
	// persistent: the store's value, not the running one, decides
	if r = run(root, false, tasks.Args{"name": "web_on", "state": true, "persistent": true}); r.Failed || r.Changed {
		t.Errorf("persistent already on: %+v", r)
	}
	if r = run(root, true, tasks.Args{"name": "web_off", "state": true, "persistent": true}); r.Failed || !r.Changed || read(root, "setsebool.args") != "" {
		t.Errorf("persistent check: %+v, setsebool %q", r, read(root, "setsebool.args"))
	}
	if r = run(root, false, tasks.Args{"name": "web_off_too", "state": true, "persistent": true}); r.Failed || r.Changed {
		t.Errorf("persistent web_off_too: %+v", r)
	}
	r = run(root, false, tasks.Args{"name": "web_off", "state": true, "persistent": true})
	if r.Failed || !r.Changed || read(root, "setsebool.args") != "-N -P -- web_off on\n" {
		t.Errorf("persistent set: %+v, setsebool %q", r, read(root, "setsebool.args"))
	}
	r = run(root, false, tasks.Args{"name": "renamed_old", "state": true, "persistent": true})
	if r.Failed || !r.Changed || read(root, "setsebool.args") != "-N -P -- renamed_new on\n" || r.Data["name"] != "renamed_old" {
		t.Errorf("renamed: %+v, setsebool %q", r, read(root, "setsebool.args"))
	}
	if err := os.WriteFile(filepath.Join(root, "fail"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(root, false, tasks.Args{"name": "web_on", "state": false, "persistent": true})
	if !r.Failed || r.Msg != "Failed to commit changes to semanage: could not commit" || r.Data["rc"] != 3 {
		t.Errorf("setsebool failing: %+v", r)
	}
	for _, c := range []struct {
		name string
		args tasks.Args
		want string
	}{
		{"unknown", tasks.Args{"name": "nope", "state": true}, "SELinux boolean nope does not exist."},
		{"slash", tasks.Args{"name": "../commit_pending_bools", "state": true}, "SELinux boolean ../commit_pending_bools does not exist."},
		{"renamed to a path", tasks.Args{"name": "slashed", "state": true}, "SELinux boolean ../x does not exist."},
		{"not in the store", tasks.Args{"name": "only_running", "state": true, "persistent": true}, "SELinux boolean only_running is not defined in persistent policy"},
	} {
		if r := run(root, false, c.args); !r.Failed || r.Msg != c.want {
			t.Errorf("%s: %+v; want %q", c.name, r, c.want)
		}
	}
	// SELinux off: no selinuxfs, a read-only one, or no config file
	for _, mounts := range []string{"proc /proc proc rw 0 0\n", "selinuxfs /sys/fs/selinux selinuxfs ro,nosuid 0 0\n"} {
		root := sebooleanHost(t)
		if err := os.WriteFile(filepath.Join(root, "proc/mounts"), []byte(mounts), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := run(root, false, tasks.Args{"name": "web_on", "state": true}); !r.Failed || r.Msg != "SELinux is disabled on this host." {
			t.Errorf("%q: %+v", mounts, r)
		}
		r := run(root, false, tasks.Args{"name": "web_on", "state": true, "ignore_selinux_state": true})
		if !r.Failed || r.Msg != "Failed to get list of boolean names" {
			t.Errorf("%q, ignored: %+v", mounts, r)
		}
	}
	root = sebooleanHost(t)
	if err := os.Remove(filepath.Join(root, "etc/selinux/config")); err != nil {
		t.Fatal(err)
	}
	if r := run(root, false, tasks.Args{"name": "web_on", "state": true}); !r.Failed || r.Msg != "SELinux is disabled on this host." {
		t.Errorf("no config: %+v", r)
	}
	if r := run(root, false, tasks.Args{"name": "web_on", "state": false, "ignore_selinux_state": true}); r.Failed || !r.Changed {
		t.Errorf("no config, ignored: %+v", r)
	}
	// without a config the policy type is targeted, whose store is missing
	want := "Cannot set persistent booleans without managed policy"
	if os.Getuid() != 0 {
		want = "Cannot set persistent booleans; please try as root"
	}
	r = run(root, false, tasks.Args{"name": "web_on", "state": true, "persistent": true, "ignore_selinux_state": true})
	if !r.Failed || r.Msg != want || strings.Contains(r.Msg, "%") {
		t.Errorf("no store: %+v", r)
	}
}
