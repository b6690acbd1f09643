//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// envDumpInit is a SysV init script that writes, for each action, its
// working directory, arguments and whole environment to a file named by
// its last argument, and says it is running.
const envDumpInit = `#!/bin/sh
eval "last=\${$#}"
{ pwd; echo "args: $*"; env | sort; } >"/tmp/envdump.$last"
echo "tender-envdump is running"
exit 0
`

// TestServiceRunsInitScriptAsDebianServiceDoes checks, on a real Debian
// host without systemd, that the service module, which runs an init
// script itself where Debian's service would (instead of starting
// service's shell and its two basename), gives the script what service
// gives it: the same working directory, arguments and environment, the
// task's environment and the shell's variables left out, and that an
// argument service reads as its own option still goes through service.
func TestServiceRunsInitScriptAsDebianServiceDoes(t *testing.T) {
	hs := fl.own(t, "nopy6")
	hs.sh(t, "nopy6", "cat >/etc/init.d/tender-envdump <<'EOF'\n"+envDumpInit+"EOF\nchmod 755 /etc/init.d/tender-envdump")
	env := `{TERM: vt100, PATH: "/usr/sbin:/usr/bin:/sbin:/bin", TENDER_EXTRA: "x y"}`
	pb := writePlaybook(t, `
- hosts: fleet
  gather_facts: false
  tasks:
    - service: {name: tender-envdump, state: started, arguments: "one viatender"}
      environment: `+env+`
      register: r
    - assert: {that: [r is not changed]}
    - service: {name: tender-envdump, state: started, arguments: "--help viahelp"}
      environment: `+env+`
      register: h
    - assert: {that: [h is not changed]}
`)
	out, code := hs.play(t, hs.inventory(t, "root", ""), pb)
	if code != 0 {
		t.Fatalf("play exit %d\n%s", code, out)
	}
	got := hs.sh(t, "nopy6", "cat /tmp/envdump.viatender")
	want := hs.sh(t, "nopy6", `cd /tmp && env TERM=vt100 PATH=/usr/sbin:/usr/bin:/sbin:/bin TENDER_EXTRA="x y" LANG=C LC_ALL=C LC_MESSAGES=C \
		service tender-envdump status one viaservice >/dev/null && sed 's/viaservice/viatender/' /tmp/envdump.viaservice`)
	if got != want {
		t.Errorf("the init script's view, run by tender:\n%s\nby service:\n%s", got, want)
	}
	for _, line := range []string{"/\n", "args: status one viatender\n", "TERM=vt100\n", "LANG=C\n"} {
		if !strings.Contains(got, line) {
			t.Errorf("the init script's view lacks %q:\n%s", line, got)
		}
	}
	if strings.Contains(got, "TENDER_EXTRA") {
		t.Errorf("the task's environment reached the init script:\n%s", got)
	}
	// service takes --help as its own option: it prints its usage and
	// never runs the script.
	if h := hs.sh(t, "nopy6", "ls /tmp/envdump.viahelp 2>&1 || :"); !strings.Contains(h, "No such file") {
		t.Errorf("with --help the init script ran:\n%s", h)
	}
}
