package playbooks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBroken loads each playbook of testdata/broken and compares the whole
// error text (every error, with file:line:col) with want.err.
func TestBroken(t *testing.T) {
	files, _ := filepath.Glob("testdata/broken/*/site.yml")
	if len(files) < 8 {
		t.Fatalf("only %d broken fixtures", len(files))
	}
	for _, path := range files {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, err := Load(path, Options{Modules: testModules})
			if err == nil {
				t.Fatal("loaded without error")
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is %T, not an ErrorList", err)
			}
			var one *Error
			if !errors.As(err, &one) || one.Pos.File == "" {
				t.Fatalf("errors.As(*Error) failed or has no file: %v", err)
			}
			got := filepath.ToSlash(err.Error()) + "\n"
			compareGolden(t, filepath.Join(dir, "want.err"), got)
			if a, err := os.ReadFile(filepath.Join(dir, "ansible.txt")); err == nil && strings.HasPrefix(string(a), "ANSIBLE ACCEPTS") {
				if _, err := os.Stat(filepath.Join(dir, "difference.txt")); err != nil {
					t.Errorf("ansible-playbook --syntax-check accepts this file: explain why tender does not in difference.txt")
				}
			}
			for _, e := range list {
				if e.Pos.Line == 0 && !strings.Contains(e.Msg, "cannot read") {
					t.Errorf("error without a line: %v", e)
				}
			}
		})
	}
}

// TestWarnings loads each playbook of testdata/warnings, which
// ansible-playbook --syntax-check accepts (ansible.txt says so) and which
// fails only when a task runs: the load succeeds and its warnings, each
// with file:line:col, are want.warn.
func TestWarnings(t *testing.T) {
	files, _ := filepath.Glob("testdata/warnings/*/site.yml")
	if len(files) < 2 {
		t.Fatalf("only %d warning fixtures", len(files))
	}
	for _, path := range files {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			a, err := os.ReadFile(filepath.Join(dir, "ansible.txt"))
			if err != nil || !strings.HasPrefix(string(a), "ANSIBLE ACCEPTS") {
				t.Fatalf("ansible.txt must record that ansible-playbook --syntax-check accepts this file (%v)", err)
			}
			pb, err := Load(path, Options{Modules: testModules})
			if err != nil {
				t.Fatalf("Ansible loads this file; tender: %v", err)
			}
			if len(pb.Warnings) == 0 {
				t.Fatal("no warnings")
			}
			for _, w := range pb.Warnings {
				if w.Pos.File == "" || w.Pos.Line == 0 {
					t.Errorf("warning without a file and line: %v", w)
				}
			}
			compareGolden(t, filepath.Join(dir, "want.warn"), filepath.ToSlash(pb.Warnings.Error())+"\n")
		})
	}
}
