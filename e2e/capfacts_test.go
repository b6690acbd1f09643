//go:build e2e

package e2e

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/provision/facts"
)

// TestCapabilityFactsWithoutCapshOnTheFleet checks, on a real host, that
// the capability facts the fact script takes from its own sets instead
// of running capsh are those capsh's output gives: as root with a
// container's capabilities, as a user with none, as root with only two
// left in the bounding set; and that with an inheritable set it asks
// capsh.
func TestCapabilityFactsWithoutCapshOnTheFleet(t *testing.T) {
	choice := `if [ -n "$capfast" ]; then`
	if !strings.Contains(facts.Script, choice) {
		t.Fatal("facts.sh's choice of capsh is not where this test looks for it")
	}
	asked := strings.Replace(facts.Script, choice, "if false; then", 1)
	h := fl.start(t, "py", "", "py")
	// run runs a script on the host as user (root when empty), under
	// capsh with these arguments when there are some.
	run := func(script, user string, capsh []string) (map[string]any, bool) {
		t.Helper()
		args := []string{"exec", "-i"}
		if user != "" {
			args = append(args, "-u", user)
		}
		args = append(args, h.container)
		if len(capsh) > 0 {
			args = append(append(append(args, "capsh"), capsh...), "--", "-c", "sh -s")
		} else {
			args = append(args, "sh", "-s")
		}
		c := exec.Command("docker", args...)
		c.Stdin = strings.NewReader(script)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		f, err := facts.Parse(out)
		if err != nil {
			t.Fatal(err)
		}
		return f, strings.Contains(string(out), "\nv|caps|")
	}
	drop := "--drop=cap_dac_override,cap_fowner,cap_fsetid,cap_setgid,cap_setuid,cap_setpcap,cap_net_bind_service," +
		"cap_net_raw,cap_sys_chroot,cap_mknod,cap_audit_write,cap_setfcap"
	cases := []struct {
		name, user string
		capsh      []string
		plain      bool
	}{
		{"root", "", nil, true},
		{"a user", "deploy", nil, true},
		{"root with two capabilities", "", []string{drop}, true},
		{"an inheritable set", "", []string{"--inh=cap_chown"}, false},
	}
	for _, c := range cases {
		got, plain := run(facts.Script, c.user, c.capsh)
		want, _ := run(asked, c.user, c.capsh)
		if plain != c.plain {
			t.Errorf("%s: taken from the sets %v, want %v", c.name, plain, c.plain)
		}
		for _, k := range []string{"system_capabilities", "system_capabilities_enforced"} {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s: %s %#v, capsh says %#v", c.name, k, got[k], want[k])
			}
		}
		if want["system_capabilities_enforced"] != "True" {
			t.Errorf("%s: enforced %v", c.name, want["system_capabilities_enforced"])
		}
	}
}
