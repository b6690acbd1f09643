package main

import (
	"os"
	"strings"
	"testing"
)

// TestModulesDocCurrent: docs/MODULES.md is what `tender doc --markdown`
// prints, so the documented parameters are the ones the modules accept.
// After changing a module's parameters: go run -tags urfave_cli_no_docs
// ./cmd/tender doc --markdown > docs/MODULES.md
func TestModulesDocCurrent(t *testing.T) {
	code, out, errs := runCLI(t, "doc", "--markdown")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, err := os.ReadFile("../../docs/MODULES.md")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("docs/MODULES.md is out of date: regenerate it with `go run -tags urfave_cli_no_docs ./cmd/tender doc --markdown > docs/MODULES.md`")
	}
	for _, m := range []string{"## apt", "## unarchive", "| dest | path | yes |"} {
		if !strings.Contains(out, m) {
			t.Errorf("the module list lacks %q", m)
		}
	}
}

func TestDocModule(t *testing.T) {
	code, out, _ := runCLI(t, "doc", "ansible.builtin.lineinfile")
	if code != 0 || !strings.HasPrefix(out, "lineinfile\n") || !strings.Contains(out, "  regexp ") ||
		!strings.Contains(out, "choices: absent, present") {
		t.Errorf("tender doc lineinfile: exit %d\n%s", code, out)
	}
	code, _, errs := runCLI(t, "doc", "lineinfle")
	if code == 0 || !strings.Contains(errs, `did you mean "lineinfile"`) {
		t.Errorf("a misspelt module: exit %d, %s", code, errs)
	}
	code, out, _ = runCLI(t, "doc")
	if code != 0 || !strings.Contains(out, "\ncopy\n") || strings.Contains(out, "setup") {
		t.Errorf("tender doc lists: exit %d\n%s", code, out)
	}
}
