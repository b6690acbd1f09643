//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var reRecap = regexp.MustCompile(`(?m)^(\S+)\s+: ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)\s+skipped=(\d+)\s+rescued=(\d+)\s+ignored=(\d+)`)

// recap parses PLAY RECAP into host → [ok changed unreachable failed skipped rescued ignored].
func recap(out string) map[string][7]int {
	m := map[string][7]int{}
	for _, r := range reRecap.FindAllStringSubmatch(out, -1) {
		var s [7]int
		for i := range s {
			fmt.Sscan(r[i+2], &s[i])
		}
		m[r[1]] = s
	}
	return m
}

const configPlaybook = `
- hosts: fleet
  become: true
  vars:
    app_dir: /opt/e2e-%[1]s
  tasks:
    - name: directory
      file: path={{ app_dir }} state=directory mode=0755
    - name: config from facts and vars
      copy:
        dest: "{{ app_dir }}/app.conf"
        content: |
          os={{ ansible_distribution }} {{ ansible_distribution_major_version }}
          host={{ inventory_hostname }} family={{ ansible_os_family }}
        mode: "0640"
    - name: a loop of files
      copy: dest={{ app_dir }}/{{ item }}.txt content={{ item }}
      loop: [one, two, three]
    - name: only on Debian
      command: touch {{ app_dir }}/debian-only
      args:
        creates: "{{ app_dir }}/debian-only"
      when: ansible_os_family == 'Debian'
    - name: look at it
      stat: path={{ app_dir }}/app.conf
      register: st
    - name: the file is there
      command: test -f {{ app_dir }}/app.conf
      changed_when: false
      when: st.stat.exists
`

func TestPlayThenNothingChanges(t *testing.T) {
	hs := fl.own(t, "py1", "py2", "nopy1")
	inv := hs.inventory(t, "deploy", "")
	pb := writePlaybook(t, fmt.Sprintf(configPlaybook, "idem"))
	out, code := hs.play(t, inv, pb)
	if code != 0 {
		t.Fatalf("first run exit %d\n%s", code, out)
	}
	for _, h := range hs.hosts {
		if s := recap(out)[h.name]; s[0] != 7 || s[1] != 4 || s[3] != 0 || s[2] != 0 {
			t.Errorf("first run %s: %v\n%s", h.name, s, out)
		}
		conf := hs.sh(t, h.name, "cat /opt/e2e-idem/app.conf; stat -c '%a %U' /opt/e2e-idem/app.conf")
		if !strings.Contains(conf, "os=Debian 12\nhost="+h.name+" family=Debian\n640 root") {
			t.Errorf("%s: app.conf is %q", h.name, conf)
		}
	}
	out, code = hs.play(t, inv, pb)
	if code != 0 {
		t.Fatalf("second run exit %d\n%s", code, out)
	}
	for _, h := range hs.hosts {
		if s := recap(out)[h.name]; s[1] != 0 || s[0] != 7 {
			t.Errorf("second run %s must change nothing: %v\n%s", h.name, s, out)
		}
	}
}

func TestCheckModeChangesNothing(t *testing.T) {
	hs := fl.own(t, "py1", "nopy1")
	inv := hs.inventory(t, "deploy", "")
	pb := writePlaybook(t, fmt.Sprintf(configPlaybook, "check"))
	out, code := hs.play(t, inv, pb, "--check")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, h := range hs.hosts {
		if s := recap(out)[h.name]; s[1] == 0 {
			t.Errorf("check mode should report changes on %s: %v", h.name, s)
		}
		if got := hs.sh(t, h.name, "ls -d /opt/e2e-check 2>&1 || true"); !strings.Contains(got, "No such file") {
			t.Errorf("check mode changed %s: %s", h.name, got)
		}
	}
}

func TestBecomeWithSudoPassword(t *testing.T) {
	hs := fl.own(t, "py1", "nopy1")
	inv := hs.inventory(t, "ops", "ansible_become_password=ops-secret\n", "py1", "nopy1")
	pb := writePlaybook(t, `
- hosts: fleet
  gather_facts: false
  tasks:
    - command: id -un
      become: true
      register: who
      changed_when: false
    - assert:
        that: who.stdout == 'root'
    - copy: dest=/root/ops-was-here content=yes
      become: true
`)
	out, code := hs.play(t, inv, pb)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if strings.Contains(out, "ops-secret") {
		t.Fatal("the become password reached the output")
	}
	if got := hs.sh(t, "nopy1", "stat -c %U /root/ops-was-here"); strings.TrimSpace(got) != "root" {
		t.Errorf("file written as %q, want root", got)
	}
	bad := hs.inventory(t, "ops", "ansible_become_password=wrong\n", "py1")
	out, code = hs.play(t, bad, pb)
	if code != 2 || recap(out)["py1"][3] != 1 {
		t.Errorf("a wrong become password must fail the host (exit 2), got %d\n%s", code, out)
	}
}

func TestHostKeyChecking(t *testing.T) {
	hs := fl.own(t, "py2")
	inv := hs.inventory(t, "deploy", "", "py2")
	pb := writePlaybook(t, "- hosts: fleet\n  gather_facts: false\n  tasks:\n    - command: 'true'\n")
	kh := filepath.Join(t.TempDir(), "known_hosts")
	out, code := fl.run(t, "play", "-i", inv, "--known-hosts", kh, "--host-key-checking", "strict", pb)
	if code != 4 || !strings.Contains(out, "UNREACHABLE") {
		t.Fatalf("an unknown host under strict checking must be unreachable (exit 4), got %d\n%s", code, out)
	}
	out, code = fl.run(t, "play", "-i", inv, "--known-hosts", kh, "--host-key-checking", "accept-new", pb)
	if code != 0 {
		t.Fatalf("accept-new: exit %d\n%s", code, out)
	}
	out, code = fl.run(t, "play", "-i", inv, "--known-hosts", kh, "--host-key-checking", "strict", pb)
	if code != 0 {
		t.Fatalf("strict after accept-new recorded the key: exit %d\n%s", code, out)
	}
}

func TestProxyJump(t *testing.T) {
	hs := fl.own(t, "py1", "py3")
	bastion := hs.host("py1")
	inv := filepath.Join(t.TempDir(), "hosts")
	common := fmt.Sprintf("-o ProxyJump=deploy@127.0.0.1:%d", bastion.port)
	writeFile(t, inv, fmt.Sprintf("inner ansible_host=%s ansible_port=22 ansible_user=deploy ansible_ssh_private_key_file=%s ansible_ssh_common_args='%s'\n",
		hs.ip(t, "py3"), fl.key, common))
	pb := writePlaybook(t, "- hosts: all\n  gather_facts: false\n  tasks:\n    - command: hostname\n      register: h\n    - debug: var=h.stdout\n")
	out, code := hs.play(t, inv, pb)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if want := strings.TrimSpace(hs.sh(t, "py3", "hostname")); !strings.Contains(out, `"h.stdout": "`+want+`"`) {
		t.Errorf("the command did not run on py3 (hostname %s):\n%s", want, out)
	}
}

func TestHostKilledMidPlay(t *testing.T) {
	hs := fl.own(t, "py2", "nopy1")
	inv := hs.inventory(t, "deploy", "")
	pb := writePlaybook(t, `
- hosts: fleet
  gather_facts: false
  tasks:
    - command: "true"
    - command: sleep 3
    - command: sleep 3
    - command: "true"
`)
	victim := hs.host("py2")
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(2 * time.Second)
		exec.Command("docker", "kill", victim.container).Run()
	}()
	out, code := hs.play(t, inv, pb)
	<-done
	if code != 4 {
		t.Errorf("exit %d, want 4 (unreachable)\n%s", code, out)
	}
	r := recap(out)
	if r["py2"][2] != 1 || r["nopy1"][0] != 4 || r["nopy1"][3] != 0 {
		t.Errorf("recap %v\n%s", r, out)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
