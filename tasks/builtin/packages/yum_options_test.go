package packages

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestYumInstallRepoquery: with the yum 3 backend, install_repoquery (on
// by default) installs yum-utils first when repoquery is missing, as
// Ansible's yum module does, but not in check mode, not when turned off,
// and never with dnf (Ansible's dnf ignores it).
func TestYumInstallRepoquery(t *testing.T) {
	if _, err := exec.LookPath("repoquery"); err == nil {
		t.Skip("this machine has a repoquery")
	}
	env, _, state := fakeRPMHost{repo: rpmRepo, inst: map[string]string{"hello": "2.0-1.noarch"}}.env(t)
	installs := func() int { return strings.Count(modtest.FakeLog(t, state), "-y install yum-utils") }
	for _, c := range []struct {
		args  tasks.Args
		check bool
		want  int
	}{
		{tasks.Args{"name": "hello", "use_backend": "yum", "releasever": "7"}, false, 1},
		{tasks.Args{"name": "hello", "use_backend": "yum", "install_repoquery": false}, false, 1},
		{tasks.Args{"name": "hello", "use_backend": "yum"}, true, 1},
		{tasks.Args{"name": "hello", "use_backend": "dnf"}, false, 1},
		{tasks.Args{"name": "hello"}, false, 1},
		{tasks.Args{"name": "hello", "use_backend": "yum"}, false, 2},
	} {
		env.Check = c.check
		if res := modtest.RunMod(t, env, "yum", c.args); res.Failed {
			t.Fatalf("%v: %+v", c.args, res)
		}
		if got := installs(); got != c.want {
			t.Errorf("%v (check %v): %d yum-utils installs so far, want %d\n%s", c.args, c.check, got, c.want, modtest.FakeLog(t, state))
		}
	}
	if !strings.Contains(modtest.FakeLog(t, state), "-y install yum-utils --releasever 7") {
		t.Errorf("releasever is passed on:\n%s", modtest.FakeLog(t, state))
	}
}

// TestYumURLPackage: a package given as a URL (which Ansible downloads,
// honouring validate_certs) is refused clearly rather than looked for as
// a file or a name.
func TestYumURLPackage(t *testing.T) {
	env, _, _ := fakeRPMHost{repo: rpmRepo}.env(t)
	for _, mod := range []string{"yum", "dnf"} {
		res := modtest.RunMod(t, env, mod, tasks.Args{"name": "https://user:pw@example.com/x.rpm", "validate_certs": false})
		if !res.Failed || !strings.Contains(res.Msg, "a package given as a URL (https://user:********@example.com/x.rpm) is not supported by tender") {
			t.Errorf("%s: %+v", mod, res)
		}
	}
}
