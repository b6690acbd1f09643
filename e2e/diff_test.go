//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"testing"
)

// diffPlaybook avoids host-specific content so two hosts can be compared
// file by file after one tool ran it on each.
const diffPlaybook = `
- hosts: fleet
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
    - file: path={{ d }}/empty state=touch mode=0644
    - command: touch {{ d }}/made-once
      args:
        creates: "{{ d }}/made-once"
    - stat: path={{ d }}/alpha.conf
      register: st
    - command: "true"
      when: st.stat.mode == '0600' and st.stat.size > 5
    - shell: echo skipped-on-purpose > {{ d }}/never
      when: ansible_os_family == 'RedHat'
    - file: path={{ d }}/empty state=absent
`

// TestSameResultAsAnsible runs one playbook with ansible-playbook on one
// host and with tender on another identical one, twice each, and compares
// the recaps and the files each left behind.
func TestSameResultAsAnsible(t *testing.T) {
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Fatal("ansible-playbook is not installed (apt-get install ansible-core); .ci/run installs it")
	}
	pb := writePlaybook(t, diffPlaybook)
	invA := fl.inventory(t, "deploy", "ansible_python_interpreter=/usr/bin/python3\n", "py2")
	invT := fl.inventory(t, "deploy", "", "py3")
	for run := 1; run <= 2; run++ {
		aout, tout := bothPlay(t, run, invA, invT, pb)
		a, tt := recap(aout)["py2"], recap(tout)["py3"]
		if a != tt {
			t.Errorf("run %d: ansible recap %v, tender recap %v\n--- ansible\n%s\n--- tender\n%s", run, a, tt, aout, tout)
		}
	}
	list := "cd /opt/diff && find . -printf '%p %y %m %u %g %s %l\\n' | sort && md5sum $(find . -type f | sort)"
	if a, tt := fl.sh(t, "py2", list), fl.sh(t, "py3", list); a != tt {
		t.Errorf("the hosts differ\n--- after ansible-playbook\n%s\n--- after tender\n%s", a, tt)
	}
}

// bothPlay runs pb with ansible-playbook on invA, then with tender on
// invT, and returns both outputs; either failing ends the test.
func bothPlay(t *testing.T, run int, invA, invT, pb string) (aout, tout string) {
	t.Helper()
	c := exec.Command("ansible-playbook", "-i", invA, pb)
	c.Env = append(os.Environ(), "ANSIBLE_HOST_KEY_CHECKING=0", "ANSIBLE_NOCOLOR=1", "ANSIBLE_PIPELINING=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("ansible-playbook run %d: %v\n%s", run, err, out)
	}
	tout, code := fl.play(t, invT, pb)
	if code != 0 {
		t.Fatalf("tender run %d: exit %d\n%s", run, code, tout)
	}
	return string(out), tout
}
