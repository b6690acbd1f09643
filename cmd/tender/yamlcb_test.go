package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestYAMLCallback: with stdout_callback = yaml, tender play prints what
// ansible-playbook prints with community.general's yaml callback
// (testdata/yamlcb/expected.out, recorded by its gen.sh): results as
// YAML below their line, changed on the line, multi-line text as
// blocks, stdout_lines omitted.
func TestYAMLCallback(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "yamlcb"))
	want, err := os.ReadFile(filepath.Join(dir, "expected.out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ANSIBLE_CONFIG", "/nonexistent")
	t.Setenv("ANSIBLE_STDOUT_CALLBACK", "yaml")
	code, out, errOut := runCLI(t, "play", "-i", filepath.Join(dir, "hosts"), filepath.Join(dir, "pb.yml"))
	times := regexp.MustCompile(`'[0-9]{4}-[0-9:. -]+'|'[0-9]:[0-9:.]+'`)
	got := times.ReplaceAllString(out, "T")
	if code != 0 || got != string(want) {
		t.Errorf("exit %d\n%s\nwant\n%s\n%s", code, got, want, errOut)
	}
	if strings.Contains(errOut, "DEFAULT_STDOUT_CALLBACK") {
		t.Errorf("the setting is reported as not applied:\n%s", errOut)
	}
}
