//go:build e2e

package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// systemdHosts starts n fresh containers of tender-e2e/debian-systemd,
// with systemd as PID 1 (e2e/fleet/run-systemd.sh), and returns them once
// systemd has finished booting and sshd answers. They are removed when
// the test ends.
func (f *fleet) systemdHosts(t *testing.T, n int) []host {
	t.Helper()
	root, _ := filepath.Abs("..")
	var hs []host
	for i := 0; i < n; i++ {
		f.mu.Lock()
		f.seq++
		idx := f.seq
		f.mu.Unlock()
		h := host{name: fmt.Sprintf("sd%d", idx), service: "sd", index: idx, container: fmt.Sprintf("%s-sd-%d", f.project, idx)}
		out, err := exec.Command(filepath.Join(root, "e2e/fleet/run-systemd.sh"), filepath.Join(f.dir, "authorized_keys"),
			"--name", h.container, "--label", "tender.e2e.project="+f.project).CombinedOutput()
		if err != nil {
			t.Fatalf("run-systemd.sh: %v\n%s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", h.container).Run() })
		if h.port, err = containerPort(h.container); err != nil {
			t.Fatal(err)
		}
		f.mu.Lock()
		f.spare = append(f.spare, h)
		f.mu.Unlock()
		hs = append(hs, h)
	}
	for _, h := range hs {
		if err := waitSSH(h.port, 3*time.Minute); err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		deadline := time.Now().Add(3 * time.Minute)
		for {
			out, _ := exec.Command("docker", "exec", h.container, "systemctl", "is-system-running").Output()
			s := strings.TrimSpace(string(out))
			if s == "running" || s == "degraded" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: systemd is %q after 3m", h.name, s)
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
	return hs
}

// systemdPlaybook drops units and a drop-in by copy and drives them with
// systemd and service (which hands over to systemd, as ansible_service_mgr
// says): daemon_reload, started, reloaded, restarted, stopped, enabled,
// disabled, masked, a missing unit, and a handler that reloads systemd and
// restarts the unit its drop-in changed. What changes the state only once
// runs when the units were new, so that the second run changes nothing.
const systemdPlaybook = `
- hosts: targets
  become: true
  handlers:
    - name: reload units and restart tender-echo
      systemd: name=tender-echo daemon_reload=yes state=restarted
  tasks:
    - name: the units (tender-masked where a package puts its units)
      copy:
        dest: "{{ item }}.service"
        content: |
          [Unit]
          Description=tender e2e {{ item | basename }}
          [Service]
          ExecStart=/usr/bin/sleep infinity
          ExecReload=/bin/true
          [Install]
          WantedBy=multi-user.target
      loop: [/etc/systemd/system/tender-echo, /etc/systemd/system/tender-idle, /lib/systemd/system/tender-masked]
      register: units
    - name: load them, start and enable tender-echo
      systemd: name=tender-echo daemon_reload=yes state=started enabled=yes
    - name: reload it by service
      service: name=tender-echo state=reloaded
      when: units.changed
    - name: restart it
      systemd: name=tender-echo state=restarted
      when: units.changed
    - name: start and enable tender-idle once
      systemd: name=tender-idle state=started enabled=yes
      when: units.changed
    - name: stop and disable it by service
      service: name=tender-idle state=stopped enabled=no
    - name: mask tender-masked
      systemd: name=tender-masked masked=yes
    - name: nothing left to do
      systemd: name=tender-echo state=started enabled=yes
    - name: drop-in directory
      file: path=/etc/systemd/system/tender-echo.service.d state=directory mode=0755
    - name: a drop-in
      copy:
        dest: /etc/systemd/system/tender-echo.service.d/env.conf
        content: "[Service]\nEnvironment=TENDER_E2E=dropin\n"
      notify: reload units and restart tender-echo
    - name: a unit that does not exist
      systemd: name=tender-nothing state=started
      ignore_errors: true
    - name: daemon_reload alone
      systemd: daemon_reload=yes
`

// systemdState prints what the playbook left: each unit's enabled and
// active state, and the drop-in's variable in the running process.
const systemdState = `
for u in tender-echo tender-idle tender-masked; do
	echo "$u $(systemctl is-enabled $u) $(systemctl is-active $u)"
done
tr '\0' '\n' </proc/$(systemctl show -p MainPID --value tender-echo)/environ | grep TENDER_E2E
`

// TestSystemdSameAsAnsible runs systemdPlaybook with ansible-playbook on
// one fresh systemd host and with tender on another, twice each, side by
// side: equal recaps and task outcomes, nothing changed the second time,
// and both hosts' units in the same, expected state.
func TestSystemdSameAsAnsible(t *testing.T) {
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Fatal("ansible-playbook is not installed (apt-get install ansible-core); .ci/run installs it")
	}
	hosts := fl.systemdHosts(t, 2)
	a, tn := hosts[0], hosts[1]
	pb := writePlaybook(t, systemdPlaybook)
	sideBySide(t, pb, a, tn, 2, nil)
	sa, st := fl.sh(t, a.name, systemdState), fl.sh(t, tn.name, systemdState)
	want := "tender-echo enabled active\ntender-idle disabled inactive\ntender-masked masked inactive\nTENDER_E2E=dropin\n"
	if sa != want || st != want {
		t.Errorf("units after ansible-playbook:\n%s\nafter tender:\n%s\nwant:\n%s", sa, st, want)
	}
}
