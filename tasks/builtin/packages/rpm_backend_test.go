package packages

import (
	"strings"
	"testing"

	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// TestYumBackend checks that yum runs dnf or yum as Ansible's yum action
// picks its backend: use or use_backend, else the ansible_pkg_mgr fact,
// else what the host has.
func TestYumBackend(t *testing.T) {
	bin, state := modtest.FakeTools(t, map[string]string{"rpm": fakeRPM, "dnf": fakeDNF, "yum": "echo yum-called >>\"$FAKE_STATE/log\"\n" + fakeDNF})
	for _, c := range []struct {
		fact   any
		args   tasks.Args
		tool   string // the command run, "" for a failure
		probed string // the pkg_mgr fact a probe found
	}{
		{"dnf", tasks.Args{}, "dnf", ""},
		{"yum", tasks.Args{}, "yum", ""},
		{nil, tasks.Args{}, "dnf", "dnf"}, // probed: dnf is installed
		{"apt", tasks.Args{}, "dnf", "dnf"},
		{"dnf", tasks.Args{"use_backend": "yum"}, "yum", ""},
		{"yum", tasks.Args{"use": "yum4"}, "dnf", ""},
		{"dnf", tasks.Args{"use": "yum", "use_backend": "dnf"}, "", ""},
	} {
		vars := map[string]any{}
		if c.fact != nil {
			vars["ansible_pkg_mgr"] = c.fact
		}
		env, _ := modtest.TestEnv(t, t.TempDir(), vars)
		env.Conn = modtest.FakeBinConn{Conn: env.Conn, Dir: bin}
		tool, probed, res, err := yumBackend(t.Context(), env, strOf(c.args["use"]), strOf(c.args["use_backend"]))
		if err != nil || tool != c.tool || probed != c.probed || (tool == "") != res.Failed {
			t.Errorf("fact %v args %v: tool %q (probed %q), result %+v, err %v; want %q", c.fact, c.args, tool, probed, res, err, c.tool)
		}
	}
	// A whole yum task on a dnf host calls dnf.
	env, _ := modtest.TestEnv(t, t.TempDir(), map[string]any{"ansible_pkg_mgr": "dnf"})
	env.Conn = modtest.FakeBinConn{Conn: env.Conn, Dir: bin}
	if res := modtest.RunMod(t, env, "yum", tasks.Args{"update_cache": true}); res.Failed || res.Changed || res.Msg != "Cache updated" {
		t.Errorf("yum update_cache alone: %+v", res)
	}
	if log := modtest.FakeLog(t, state); strings.Contains(log, "yum-called") || !strings.Contains(log, "makecache") {
		t.Errorf("yum did not run dnf makecache:\n%s", log)
	}
}

func strOf(v any) string {
	s, _ := v.(string)
	return s
}
