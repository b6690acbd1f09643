package files

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestSelinuxConfigFile runs selinux on a config file in a temporary
// directory of a host where SELinux does not run: the file's state is
// set, a reboot is required, and a second run changes nothing.
func TestSelinuxConfigFile(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/sys/fs/selinux/enforce"); err == nil {
		t.Skip("SELinux runs here")
	}
	env, _ := modtest.TestEnv(t, "", nil)
	cf := filepath.Join(t.TempDir(), "config")
	os.WriteFile(cf, []byte("# comment\nSELINUX=enforcing\nSELINUXTYPE=targeted\n"), 0o644)
	step := func(check bool, changed bool, want string) tasks.Result {
		t.Helper()
		env.Check = check
		res, err := selinuxModule{}.Run(context.Background(), env, tasks.Args{"state": "permissive", "policy": "targeted", "configfile": cf})
		if err != nil || res.Failed {
			t.Fatalf("%v %s", err, res.Msg)
		}
		if res.Changed != changed || res.Data["reboot_required"] != true {
			t.Fatalf("changed %v reboot %v, want %v true", res.Changed, res.Data["reboot_required"], changed)
		}
		if b, _ := os.ReadFile(cf); string(b) != want {
			t.Fatalf("config %q, want %q", b, want)
		}
		return res
	}
	before := "# comment\nSELINUX=enforcing\nSELINUXTYPE=targeted\n"
	after := "# comment\nSELINUX=permissive\nSELINUXTYPE=targeted\n"
	step(true, true, before)
	res := step(false, true, after)
	if res.Data["msg"] != "Config SELinux state changed from 'enforcing' to 'permissive'" {
		t.Fatalf("msg %q", res.Data["msg"])
	}
	step(false, false, after)

	// No SELinux at all: disabled holds already; enforcing cannot be had.
	env.Check = false
	res, err := selinuxModule{}.Run(context.Background(), env, tasks.Args{"state": "disabled", "configfile": cf + ".none"})
	if err != nil || res.Failed || res.Changed {
		t.Fatalf("disabled without SELinux: %v %+v", err, res)
	}
	res, err = selinuxModule{}.Run(context.Background(), env, tasks.Args{"state": "enforcing", "policy": "targeted", "configfile": cf + ".none"})
	if err != nil || !res.Failed || res.Msg != "Unable to find file "+cf+".none" {
		t.Fatalf("enforcing without SELinux: %v %+v", err, res)
	}
}
