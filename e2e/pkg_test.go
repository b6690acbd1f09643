//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// pkgPlaybook installs, upgrades and removes packages from the fleet's
// local apt repository (e2e/fleet/aptrepo.sh) and runs a SysV service.
const pkgPlaybook = `
- hosts: fleet
  become: true
  tasks:
    - apt: update_cache=yes cache_valid_time=3600
    - name: one apt-get for a loop of packages
      apt: name={{ item }} state=present
      loop: [tender-hello, hello]
    - package: name=tree state=present
    - name: make tender-hello 2.0 available
      copy:
        dest: /etc/apt/sources.list.d/tender-v2.list
        content: "deb [trusted=yes] file:/srv/tender-apt/v2 ./\n"
      register: v2
    - apt: update_cache=yes
      when: v2.changed
    - apt: name=tender-hello state=latest
    - apt: name=pv state=absent purge=yes
    - copy:
        dest: /etc/init.d/tender-sleep
        mode: "0755"
        content: |
          #!/bin/sh
          ### BEGIN INIT INFO
          # Provides:          tender-sleep
          # Required-Start:
          # Required-Stop:
          # Default-Start:     2 3 4 5
          # Default-Stop:      0 1 6
          # Short-Description: tender's e2e daemon
          ### END INIT INFO
          p=/run/tender-sleep.pid
          case "$1" in
          start) start-stop-daemon --start --quiet --oknodo --background --make-pidfile --pidfile $p --exec /usr/bin/sleep -- 200000 ;;
          stop) start-stop-daemon --stop --quiet --oknodo --retry 5 --pidfile $p --remove-pidfile ;;
          status) start-stop-daemon --status --pidfile $p ;;
          *) exit 3 ;;
          esac
    - service: name=tender-sleep state=started enabled=yes
`

// TestPackagesAndServices runs pkgPlaybook twice with tender on a new host
// without python: the first run changes what it should (install, upgrade
// by state=latest, purge of a package installed beforehand, a started and enabled SysV service), the second
// nothing.
func TestPackagesAndServices(t *testing.T) {
	hs := fl.own(t, "nopy1")
	inv := hs.inventory(t, "deploy", "")
	pb := writePlaybook(t, pkgPlaybook)
	// pv is there to be purged. The setup's update makes the lists new:
	// date them 1970 again, as on a host never updated, so that
	// cache_valid_time asks for an update.
	hs.sh(t, "nopy1", "apt-get -qq update && apt-get -qq install pv >/dev/null && touch -d @0 /var/lib/apt/lists")
	out, code := hs.play(t, inv, pb)
	if code != 0 {
		t.Fatalf("first run exit %d\n%s", code, out)
	}
	if s := recap(out)["nopy1"]; s[1] != 9 || s[3] != 0 {
		t.Errorf("first run: %v\n%s", s, out)
	}
	got := hs.sh(t, "nopy1", `tender-hello; dpkg-query -W -f='${db:Status-Abbrev}\n' pv 2>&1; command -v hello; command -v tree;
		ls /etc/rc2.d | grep tender; /etc/init.d/tender-sleep status && echo running`)
	for _, want := range []string{"tender-hello 2.0\n", "/usr/bin/tree\n", "/usr/bin/hello\n", "S01tender-sleep\n", "running\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("host state lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "ii ") || strings.Contains(got, "rc ") {
		t.Errorf("pv is still installed or not purged:\n%s", got)
	}
	out, code = hs.play(t, inv, pb)
	if code != 0 {
		t.Fatalf("second run exit %d\n%s", code, out)
	}
	if s := recap(out)["nopy1"]; s[1] != 0 || s[3] != 0 {
		t.Errorf("second run must change nothing: %v\n%s", s, out)
	}
}
