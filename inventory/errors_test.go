package inventory

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateErrors = flag.Bool("update-errors", false, "rewrite testdata/errors/*.err from tender's output")

// TestErrors parses each broken input in testdata/errors and checks two
// things: tender's full message (with file:line:col) equals X.err, and it
// says what Ansible says. X.ansible holds the message of the exception
// Ansible's ini or yaml plugin raised (recorded by gen.sh); to compare, the
// column is dropped from tender's "file:line:col:" prefix, and the whole
// prefix when Ansible's message has none.
func TestErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.ini")
	ymls, _ := filepath.Glob("testdata/errors/*.yml")
	files = append(files, ymls...)
	if len(files) < 15 {
		t.Fatalf("only %d broken inputs", len(files))
	}
	prefix := regexp.MustCompile(`^(\S+?:\d+):\d+: `)
	anyPrefix := regexp.MustCompile(`^\S+?:\d+(:\d+)?: `)
	for _, f := range files {
		name := strings.TrimPrefix(f, "testdata/")
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inv := New()
		if strings.HasSuffix(f, ".ini") {
			err = inv.ParseINI(name, src)
		} else {
			err = inv.ParseYAML(name, src)
		}
		if err == nil {
			t.Errorf("%s: no error", f)
			continue
		}
		got := err.Error()
		base := strings.TrimSuffix(f, filepath.Ext(f))
		if *updateErrors {
			if err := os.WriteFile(base+".err", []byte(got+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(base + ".err")
		if err != nil {
			t.Fatal(err)
		}
		if got != strings.TrimSuffix(string(want), "\n") {
			t.Errorf("%s:\n got %q\nwant %q", f, got, want)
		}
		if !prefix.MatchString(got) && !strings.HasPrefix(got, name+": ") {
			t.Errorf("%s: %q does not start with file:line:col", f, got)
		}
		ans, err := os.ReadFile(base + ".ansible")
		if err != nil {
			t.Fatal(err)
		}
		a := strings.TrimSuffix(string(ans), "\n")
		g := prefix.ReplaceAllString(got, "$1: ")
		if !anyPrefix.MatchString(a) {
			g = anyPrefix.ReplaceAllString(got, "")
			g = strings.TrimPrefix(g, name+": ")
		}
		if g != a {
			t.Errorf("%s: tender says\n  %q\nansible says\n  %q", f, g, a)
		}
	}
}
