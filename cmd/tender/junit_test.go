package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	reXMLTime  = regexp.MustCompile(`time="[0-9.]+"`)
	reCmdTimes = regexp.MustCompile(`&quot;(delta|start|end)&quot;: &quot;[^&]*&quot;`)
)

// TestJUnitAgainstAnsible: --junit FILE writes the report Ansible's junit
// callback writes for the same playbook (testdata/jsoncb/ansible-junit-*.xml,
// recorded by gen.sh), durations and command times aside.
func TestJUnitAgainstAnsible(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "jsoncb"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	norm := func(s string) string {
		s = strings.ReplaceAll(s, dir+"/", "@DIR@/")
		s = reXMLTime.ReplaceAllString(s, `time="T"`)
		return reCmdTimes.ReplaceAllString(s, "&quot;$1&quot;: &quot;T&quot;")
	}
	for pb, wantCode := range map[string]int{"pb": 0, "fail": 2} {
		t.Run(pb, func(t *testing.T) {
			want, err := os.ReadFile("ansible-junit-" + pb + ".xml")
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "report.xml")
			code, _, errOut := runCLI(t, "play", "-i", "hosts", "-f", "1", "--no-progress", "--junit", file, pb+".yml")
			if code != wantCode {
				t.Fatalf("exit %d, want %d\n%s", code, wantCode, errOut)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := norm(string(got)), norm(string(want)); g != w {
				t.Errorf("--junit report differs\n--- tender\n%s\n--- ansible\n%s", g, w)
			}
		})
	}
}
