package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestStdoutCallbacks: with stdout_callback = yaml, minimal or oneline,
// tender play prints what ansible-playbook prints with that callback
// (testdata/stdoutcb/CALLBACK.out, recorded by its gen.sh): yaml's
// results as YAML below their line, minimal's and oneline's lines of the
// ansible command, with no banners and no recap.
func TestStdoutCallbacks(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "stdoutcb"))
	times := regexp.MustCompile(`'[0-9]{4}-[0-9:. -]+'|'[0-9]:[0-9:.]+'`)
	jsonTimes := regexp.MustCompile(`"(delta|end|start)": "[^"]*"`)
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent")
	for _, cb := range []string{"yaml", "minimal", "oneline"} {
		want, err := os.ReadFile(filepath.Join(dir, cb+".out"))
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("ANSIBLE_STDOUT_CALLBACK", cb)
		code, out, errOut := runCLI(t, "play", "-i", filepath.Join(dir, "hosts"), filepath.Join(dir, "pb.yml"))
		got := jsonTimes.ReplaceAllString(times.ReplaceAllString(out, "T"), `"$1": T`)
		if code != 0 || got != string(want) {
			t.Errorf("%s: exit %d\n%s\nwant\n%s\n%s", cb, code, got, want, errOut)
		}
		if strings.Contains(errOut, "DEFAULT_STDOUT_CALLBACK") {
			t.Errorf("%s: the setting is reported as not applied:\n%s", cb, errOut)
		}
	}
}

// TestCallbackOptions: show_custom_stats prints set_stats' data after
// the recap in the default and yaml callbacks, as ansible-playbook
// does; the json callback's json_indent is read from ansible.cfg, and a
// value that is not a number stops the run; the minimal callback's
// result_format, which tender does not apply, is warned about.
func TestCallbackOptions(t *testing.T) {
	dir := t.TempDir()
	pb := filepath.Join(dir, "pb.yml")
	os.WriteFile(pb, []byte("- hosts: localhost\n  gather_facts: false\n  tasks:\n"+
		"    - set_stats: {data: {packages: 3}}\n    - set_stats: {data: {mine: 1}, per_host: true}\n"), 0o644)
	cfg := filepath.Join(dir, "ansible.cfg")
	t.Setenv("ANSIBLE_CONFIG", cfg)
	os.WriteFile(cfg, []byte("[defaults]\nshow_custom_stats = true\n"), 0o644)
	code, out, errs := runCLI(t, "play", "-i", "localhost,", "-c", "local", pb)
	want := "\nCUSTOM STATS: ******************************************************************\n" +
		"\tlocalhost: { \"mine\": 1}\n\n\tRUN: { \"packages\": 3}\n\n"
	if code != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("show_custom_stats: exit %d, %s\n%q", code, errs, out)
	}
	os.WriteFile(cfg, []byte("[defaults]\nstdout_callback = json\njson_indent = 2\n"), 0o644)
	if code, out, errs = runCLI(t, "play", "-i", "localhost,", "-c", "local", pb); code != 0 || !strings.HasPrefix(out, "{\n  \"custom_stats\"") {
		t.Errorf("json_indent = 2: exit %d, %s\n%s", code, errs, out)
	}
	os.WriteFile(cfg, []byte("[defaults]\nstdout_callback = json\njson_indent = x\n"), 0o644)
	if code, _, errs = runCLI(t, "play", "-i", "localhost,", "-c", "local", pb); code != 5 || !strings.Contains(errs, "json_indent") {
		t.Errorf("json_indent = x: exit %d, %s", code, errs)
	}
	os.WriteFile(cfg, []byte("[defaults]\nstdout_callback = minimal\ncallback_result_format = yaml\n"), 0o644)
	if code, _, errs = runCLI(t, "play", "-i", "localhost,", "-c", "local", pb); code != 0 || !strings.Contains(errs, "minimal callback yet: result_format") {
		t.Errorf("minimal's result_format: exit %d, %s", code, errs)
	}
}
