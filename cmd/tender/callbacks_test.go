package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCallbacksEnabled: callbacks_enabled = timer, profile_tasks prints
// what ansible.posix's callbacks print, in the order listed, after the
// default output's lines for each event (the layout recorded from
// ansible-playbook 2.14); a callback tender does not have is skipped
// with Ansible's warning, and the setting is no longer reported as not
// applied.
func TestCallbacksEnabled(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ansible.cfg")
	inv := filepath.Join(dir, "hosts")
	pb := filepath.Join(dir, "pb.yml")
	for p, s := range map[string]string{
		cfg: "[defaults]\ncallbacks_enabled = ansible.posix.timer, profile_tasks, nosuch.cb\n[callback_profile_tasks]\ntask_output_limit = 1\n",
		inv: "h1 ansible_connection=local\n",
		pb:  "- hosts: all\n  gather_facts: false\n  tasks:\n    - name: first\n      command: sleep 0.2\n    - debug: msg=hi\n",
	} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("ANSIBLE_CONFIG", cfg)
	code, out, errOut := runCLI(t, "play", "-i", inv, pb)
	stamp := `\w+day \d\d \w+ \d{4}  \d\d:\d\d:\d\d [+-]\d{4} \(\d:\d\d:\d\d\.\d{3}\)       \d:\d\d:\d\d\.\d{3} \*+ \n`
	shape := regexp.MustCompile(`(?s)TASK \[first\] \*+\n` + stamp + `changed: \[h1\]\n\nTASK \[debug\] \*+\n` + stamp +
		`ok: \[h1\] => \{.*PLAY RECAP.*\n\nPlaybook run took 0 days, 0 hours, 0 minutes, 0 seconds\n` + stamp +
		`=+ \nfirst -+ 0\.[2-9]\ds\n$`)
	if code != 0 || !shape.MatchString(out) {
		t.Errorf("exit %d, output not in the callbacks' layout:\n%s", code, out)
	}
	if !strings.Contains(errOut, "[WARNING]: Skipping callback plugin 'nosuch.cb', unable to load") || strings.Contains(errOut, "CALLBACKS_ENABLED") {
		t.Errorf("warnings:\n%s", errOut)
	}
}

// TestJUnitCallback: callbacks_enabled = junit writes the run's JUnit
// report to JUNIT_OUTPUT_DIR (made when missing) as PLAYBOOK-SECONDS.xml,
// as Ansible's junit callback does; its other settings are warned about.
func TestJUnitCallback(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "reports", "junit")
	inv := filepath.Join(dir, "hosts")
	pb := filepath.Join(dir, "site.yml")
	for p, s := range map[string]string{
		inv: "h1 ansible_connection=local\n",
		pb:  "- hosts: all\n  gather_facts: false\n  tasks:\n    - name: fails\n      command: \"false\"\n      ignore_errors: true\n    - debug: msg=hi\n",
	} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent")
	t.Setenv("ANSIBLE_CALLBACKS_ENABLED", "ansible.builtin.junit")
	t.Setenv("JUNIT_OUTPUT_DIR", out)
	t.Setenv("JUNIT_FAIL_ON_CHANGE", "true")
	code, _, errOut := runCLI(t, "play", "-i", inv, pb)
	files, _ := filepath.Glob(filepath.Join(out, "site-*.xml"))
	if code != 0 || len(files) != 1 || !regexp.MustCompile(`site-\d+(\.\d+)?\.xml$`).MatchString(files[0]) {
		t.Fatalf("exit %d, reports %v\n%s", code, files, errOut)
	}
	data, _ := os.ReadFile(files[0])
	if n := strings.Count(string(data), "<testcase "); n != 2 || !strings.Contains(string(data), `name="[h1] all: fails`) {
		t.Errorf("%d test cases:\n%s", n, data)
	}
	if !strings.Contains(errOut, "does not apply these settings yet: JUNIT_FAIL_ON_CHANGE") {
		t.Errorf("the unapplied setting is not warned about:\n%s", errOut)
	}
}
