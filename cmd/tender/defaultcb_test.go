package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultCallbackOptions: display_skipped_hosts, display_ok_hosts,
// show_task_path_on_failure, display_failed_stderr and
// check_mode_markers do what they do in ansible-playbook
// (testdata/defaultcb, recorded by its gen.sh): the results they hide
// are left out, a task's banner waits for a result that shows, the
// task's path comes before a failure, failures go to stderr, banners in
// check mode are marked (a templated check_mode counts as set) and a
// --check run has DRY RUN banners.
func TestDefaultCallbackOptions(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "defaultcb"))
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent")
	for _, c := range []struct {
		name string
		env  []string
		args []string
	}{
		{"hide-skipped", []string{"ANSIBLE_DISPLAY_SKIPPED_HOSTS=0"}, nil},
		{"hide-ok", []string{"ANSIBLE_DISPLAY_OK_HOSTS=0", "ANSIBLE_SHOW_TASK_PATH_ON_FAILURE=1"}, nil},
		{"hide-both", []string{"ANSIBLE_DISPLAY_SKIPPED_HOSTS=0", "ANSIBLE_DISPLAY_OK_HOSTS=0", "ANSIBLE_DISPLAY_FAILED_STDERR=1"}, nil},
		{"check-markers", []string{"ANSIBLE_CHECK_MODE_MARKERS=1"}, []string{"--check", filepath.Join(dir, "check.yml")}},
	} {
		for _, kv := range []string{"ANSIBLE_DISPLAY_SKIPPED_HOSTS", "ANSIBLE_DISPLAY_OK_HOSTS", "ANSIBLE_SHOW_TASK_PATH_ON_FAILURE",
			"ANSIBLE_DISPLAY_FAILED_STDERR", "ANSIBLE_CHECK_MODE_MARKERS"} {
			t.Setenv(kv, "")
			os.Unsetenv(kv)
		}
		for _, kv := range c.env {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		wantOut, err := os.ReadFile(filepath.Join(dir, c.name+".out"))
		if err != nil {
			t.Fatal(err)
		}
		wantErr, _ := os.ReadFile(filepath.Join(dir, c.name+".err"))
		args := c.args
		if args == nil {
			args = []string{filepath.Join(dir, "pb.yml")}
		}
		code, out, errOut := runCLI(t, append([]string{"play", "-i", filepath.Join(dir, "hosts"), "-f", "1"}, args...)...)
		out = strings.ReplaceAll(out, dir+"/", "")
		if code != 0 || out != string(wantOut) || errOut != string(wantErr) {
			t.Errorf("%s: exit %d\n%s--- stderr\n%s--- want\n%s--- stderr\n%s", c.name, code, out, errOut, wantOut, wantErr)
		}
	}
}
