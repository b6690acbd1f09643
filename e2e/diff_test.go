//go:build e2e

package e2e

import (
	"os/exec"
	"testing"
)

// diffPlaybook avoids host-specific content so two hosts can be compared
// file by file after one tool ran it on each.
const diffPlaybook = `
- hosts: targets
  become: true
  vars:
    d: /opt/diff
    names: [alpha, beta]
  tasks:
    - file: path={{ d }} state=directory mode=0750
    - file: path={{ d }}/sub/deeper state=directory recurse=yes mode=0755
    - copy: dest={{ d }}/{{ item }}.conf content="name={{ item }}\nfamily={{ ansible_os_family }}\n" mode=0600
      loop: "{{ names }}"
    - copy: dest={{ d }}/sub/script.sh content="#!/bin/sh\necho hi\n" mode=0755 owner=deploy
    - file: path={{ d }}/link src={{ d }}/alpha.conf state=link
    - file: path={{ d }}/empty state=touch mode=0644 access_time=preserve modification_time=preserve
    - command: touch {{ d }}/made-once
      args:
        creates: "{{ d }}/made-once"
    - stat: path={{ d }}/alpha.conf
      register: st
    - command: "true"
      when: st.stat.mode == '0600' and st.stat.size > 5
      changed_when: false
    - shell: echo skipped-on-purpose > {{ d }}/never
      when: ansible_os_family == 'RedHat'
    - file: path={{ d }}/never state=absent
`

// TestSameResultAsAnsible runs one playbook with ansible-playbook on one
// host and with tender on another identical one, twice each, side by
// side, and compares the recaps, the tasks' outcomes and the files each
// left behind.
func TestSameResultAsAnsible(t *testing.T) {
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Fatal("ansible-playbook is not installed (apt-get install ansible-core); .ci/run installs it")
	}
	pb := writePlaybook(t, diffPlaybook)
	hs := fl.fresh(t, "py", 2)
	sideBySide(t, pb, hs[0], hs[1], 2, nil)
	list := "cd /opt/diff && find . -printf '%p %y %m %u %g %s %l\\n' | sort && md5sum $(find . -type f | sort)"
	if a, tt := fl.sh(t, hs[0].name, list), fl.sh(t, hs[1].name, list); a != tt {
		t.Errorf("the hosts differ\n--- after ansible-playbook\n%s\n--- after tender\n%s", a, tt)
	}
}
