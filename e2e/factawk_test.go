//go:build e2e

package e2e

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tender-sh/tender/provision/facts"
)

// TestFactScriptWithoutAwkOnTheFleet checks, on a real host, that what
// the fact script's awk reads for the shell (the user from
// /proc/self/status and /etc/passwd, the kernel command line, the fqdn's
// names from /etc/hosts, the release, resolver and host key files) comes
// out the same when the host has no awk and the shell reads it all
// itself, as root and as a user. (Without awk the kernel's last
// capability is unknown, and capsh is asked.)
func TestFactScriptWithoutAwkOnTheFleet(t *testing.T) {
	h := fl.start(t, "py", "", "py")
	if err := waitSSH(h.port, 60*time.Second); err != nil { // its host keys made
		t.Fatal(err)
	}
	kept := []string{"v|uids|", "v|gids|", "v|vxid|", "v|cpus_allowed|", "v|user_", "v|passwd|", "v|same_os_release|", "v|cmdline|", "v|fqdn_names|",
		"f|/etc/", "f|/usr/lib/os-release|"}
	// lines runs the script as user and returns the lines kept, sorted
	// by kind and name (a file's lines stay in their order).
	lines := func(user string) []string {
		c := exec.Command("docker", "exec", "-i", "-u", user, h.container, "sh", "-s")
		c.Stdin = strings.NewReader(facts.Script)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", user, err, out)
		}
		groups := map[string][]string{}
		for _, l := range strings.Split(string(out), "\n") {
			for _, k := range kept {
				if strings.HasPrefix(l, k) {
					groups[name(l)] = append(groups[name(l)], l)
				}
			}
		}
		names := make([]string, 0, len(groups))
		for n := range groups {
			names = append(names, n)
		}
		sort.Strings(names)
		var got []string
		for _, n := range names {
			got = append(got, groups[n]...)
		}
		return got
	}
	users := []string{"root", "deploy"}
	with := map[string][]string{}
	for _, u := range users {
		with[u] = lines(u)
		for _, want := range []string{"v|uids|", "v|passwd|", "f|/etc/os-release|", "f|/etc/ssh/ssh_host_ed25519_key.pub|",
			"v|cmdline|", "v|fqdn_names|"} {
			if !strings.Contains(strings.Join(with[u], "\n"), want) {
				t.Errorf("%s: no %s line", u, want)
			}
		}
	}
	if out, err := exec.Command("docker", "exec", h.container, "sh", "-c", "mv /usr/bin/awk /usr/bin/awk.off").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, u := range users {
		without := lines(u)
		if strings.Join(without, "\n") != strings.Join(with[u], "\n") {
			t.Errorf("%s: with awk\n%s\nwithout\n%s", u, strings.Join(with[u], "\n"), strings.Join(without, "\n"))
		}
	}
}

// name is the kind and name of a line of the fact script (KIND|NAME|).
func name(line string) string {
	parts := strings.SplitN(line, "|", 3)
	if len(parts) < 3 {
		return line
	}
	return parts[0] + "|" + parts[1]
}
