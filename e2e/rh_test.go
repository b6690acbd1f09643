//go:build e2e

package e2e

import (
	"os/exec"
	"testing"
)

// rhPlaybook drives dnf, yum and package on the rh host (a dnf host, see
// docs/TESTING.md) against the local rpm repositories of
// e2e/fleet/rpmrepo.sh, then writes what every task registered, its
// results sorted (dnf reports them from sets, in no fixed order), to
// /root/outcomes. Every task leaves a state the next run finds, so that a
// second run changes nothing.
const rhPlaybook = `
- hosts: targets
  become: true
  vars:
    local_rpm: /srv/tender-rpm/local/tender-local-1.0-1.noarch.rpm
  tasks:
    - name: the facts say a RedHat-family dnf host
      assert:
        that: [ansible_os_family == 'RedHat', ansible_pkg_mgr == 'dnf', ansible_distribution == 'Rocky']
    - name: install, with a dependency
      dnf: name=tender-app
      register: r_install
    - name: install a list already there
      dnf:
        name: [tender-base, tender-app]
        state: installed
      register: r_list
    - name: upgrade to the latest
      dnf: name=tender-hello state=latest
      register: r_latest
    - name: yum on a dnf host removes
      yum: name=tender-tool state=absent
      register: r_yum_absent
    - name: removed, already gone
      dnf: name=tender-tool state=removed
      register: r_removed
    - name: a local rpm by its path
      dnf: name={{ local_rpm }} state=present disable_gpg_check=true
      register: r_local
    - name: from a disabled repository whose packages are not signed
      dnf: name=tender-extra enablerepo=tender-extra disable_gpg_check=true
      register: r_extra
    - name: installed, its repository disabled
      dnf: name=tender-extra disablerepo=tender-extra
      register: r_disabled
    - name: update the cache alone
      dnf: update_cache=true
      register: r_cache
    - name: update the cache and install
      dnf: name=tender-base update_cache=true
      register: r_cache_install
    - name: a loop of packages
      dnf: name={{ item }} state=present
      loop: [tender-one, tender-two, tender-base]
      register: r_loop
    - name: a loop of removals
      dnf: name={{ item }} state=absent
      loop: [tender-gone, tender-tool]
      register: r_loop_absent
    - name: package dispatches to dnf
      package: name=tender-three state=present
      register: r_package
    - name: yum latest, already there
      yum: name=tender-hello state=latest
      register: r_yum_latest
    - name: a package no repository has
      dnf: name=tender-nope state=present
      register: r_missing
      ignore_errors: true
    - name: what every task registered
      changed_when: false
      copy:
        dest: /root/outcomes
        content: |
          {% for name, r in [('install', r_install), ('list', r_list), ('latest', r_latest),
               ('yum_absent', r_yum_absent), ('removed', r_removed), ('local', r_local), ('extra', r_extra),
               ('disabled', r_disabled), ('cache', r_cache), ('cache_install', r_cache_install),
               ('loop', r_loop), ('loop_absent', r_loop_absent), ('package', r_package),
               ('yum_latest', r_yum_latest), ('missing', r_missing)] %}
          {% for x in (r.results if r.results is defined and r.results | length > 0 and r.results[0] is mapping else [r]) %}
          {{ name }} item={{ x.item | default('') }} changed={{ x.changed }} failed={{ x.failed | default(false) }} rc={{ x.rc | default('') }} msg={{ x.msg | default('') }}
            results={{ x.results | default([]) | sort | join(', ') }}
            failures={{ x.failures | default([]) | join(', ') }}
          {% endfor %}
          {% endfor %}
`

// TestRedHatPackagesLikeAnsible runs rhPlaybook with ansible-playbook on
// one fresh rh host and with tender on another, twice each, side by side,
// and compares each task's outcome, the recaps, what the tasks registered
// and the rpm databases; the second runs must change nothing.
func TestRedHatPackagesLikeAnsible(t *testing.T) {
	if _, err := exec.LookPath("ansible-playbook"); err != nil {
		t.Fatal("ansible-playbook is not installed (apt-get install ansible-core); .ci/run installs it")
	}
	hs := fl.fresh(t, "rh", 2)
	a, b := hs[0].name, hs[1].name
	for _, n := range []string{a, b} {
		// tender-tool is there to be removed, tender-hello 1.0 to be upgraded.
		fl.sh(t, n, "dnf -y -q install tender-tool tender-hello-1.0 >/dev/null")
	}
	pb := writePlaybook(t, rhPlaybook)
	sideBySide(t, pb, hs[0], hs[1], 2, func(run int) {
		if oa, ot := fl.sh(t, a, "cat /root/outcomes"), fl.sh(t, b, "cat /root/outcomes"); oa != ot {
			t.Errorf("run %d: the tasks registered different results\n--- ansible\n%s\n--- tender\n%s", run, oa, ot)
		}
	})
	list := "rpm -qa --qf '%{NAME}-%{VERSION}-%{RELEASE}.%{ARCH}\\n' | sort"
	if pa, pt := fl.sh(t, a, list), fl.sh(t, b, list); pa != pt {
		t.Errorf("the rpm databases differ\n--- after ansible-playbook\n%s\n--- after tender\n%s", pa, pt)
	}
}
