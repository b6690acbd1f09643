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
