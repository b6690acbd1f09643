package expr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFiles creates files (name → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIncludeSearchesTheTemplatesOwnDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"roles/web/templates/site.j2":    "site[{% include 'part.j2' %}|{% include 'common.j2' %}]\n",
		"roles/web/templates/part.j2":    "{{ s }}\n",
		"playbook/templates/common.j2":   "common",
		"playbook/templates/unused.j2":   "x",
		"elsewhere/not_searched/part.j2": "wrong",
	})
	src, err := os.ReadFile(filepath.Join(dir, "roles/web/templates/site.j2"))
	if err != nil {
		t.Fatal(err)
	}
	tm, err := ParseFileTemplateAt(string(src), filepath.Join(dir, "roles/web/templates/site.j2"))
	if err != nil {
		t.Fatal(err)
	}
	scope := &Vars{Layers: []map[string]any{{"s": "hello"}}, Env: &Env{SearchPaths: []string{filepath.Join(dir, "playbook")}}}
	got, err := tm.Render(scope)
	if err != nil || got != "site[hello|common]\n" {
		t.Fatalf("got %q, %v", got, err)
	}
	// without its path, the template's own directory is not searched
	plain, err := ParseFileTemplate(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Render(scope); err == nil || !strings.Contains(err.Error(), "'part.j2' not found") {
		t.Fatalf("want a not-found error naming part.j2, got %v", err)
	}
}

func TestIncludeStaysInsideTheSearchPath(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"pb/templates/a.j2": "a", "secret.txt": "secret"})
	scope := &Vars{Layers: []map[string]any{{}}, Env: &Env{SearchPaths: []string{filepath.Join(dir, "pb")}}}
	for _, name := range []string{"../secret.txt", "templates/../../secret.txt", filepath.Join(dir, "secret.txt")} {
		if got, err := Render("{% include '"+name+"' %}", scope); err == nil {
			t.Errorf("include %q: got %q, want not found", name, got)
		}
	}
	// an absolute name is looked up under the search path, as Jinja does
	if got, err := Render("{% include '/templates/a.j2' %}", scope); err != nil || got != "a" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestIncludeRecursionIsBounded(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		// includes itself without end
		"self.j2": "x{% include 'self.j2' %}",
		// doubles the work at every level: 2**40 renders unless bounded
		"fork.j2": "{% set d = (d | default(0)) + 1 %}{% if d < 40 %}{% include 'fork.j2' %}{% include 'fork.j2' %}{% endif %}",
		// grows the output at every level
		"grow.j2": "{{ 'y' * 1000000 }}{% include 'grow.j2' %}{% include 'grow.j2' %}",
	})
	scope := &Vars{Layers: []map[string]any{{}}, Env: &Env{SearchPaths: []string{dir}}}
	for name, want := range map[string]string{"self.j2": "nested more than", "fork.j2": "too expensive", "grow.j2": "too large"} {
		start := time.Now()
		_, err := RunLookupIn(scope, "template", []any{name}, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want an error containing %q, got %v", name, want, err)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
	}
}

func TestIncludeWithoutContextSeesNoVariables(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"v.j2": "{{ s is defined }}-{{ lookup('env', 'TENDER_X') }}"})
	env := &Env{SearchPaths: []string{dir}, Getenv: func(string) (string, bool) { return "envok", true }}
	scope := &Vars{Layers: []map[string]any{{"s": 1}}, Env: env}
	for src, want := range map[string]string{
		"{% include 'v.j2' %}":                 "True-envok",
		"{% include 'v.j2' with context %}":    "True-envok",
		"{% include 'v.j2' without context %}": "False-envok",
	} {
		if got, err := Render(src, scope); err != nil || Str(got) != want {
			t.Errorf("%s: got %q, %v; want %q", src, got, err, want)
		}
	}
}
