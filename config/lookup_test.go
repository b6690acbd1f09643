package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/playbooks/expr"
)

// lookupRecord is one case of testdata/lookups.json.
type lookupRecord struct {
	ID    int     `json:"id"`
	E     string  `json:"e"`
	Type  string  `json:"type"`
	JSON  string  `json:"json"`
	Error *string `json:"error"`
}

// TestLookupAgainstAnsible evaluates each expression of
// testdata/lookups.yaml with the config lookup reading a Config loaded as
// the recorded play's was (same files, same environment), and compares
// the value's type and JSON, or the error, with what ansible-playbook
// answered (testdata/lookups.json, recorded by testdata/gen.py).
func TestLookupAgainstAnsible(t *testing.T) {
	raw, err := os.ReadFile("testdata/lookups.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := yaml11.Vars(raw, "lookups.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := scenario{Env: map[string]string{}, Files: map[string]string{}}
	for k, v := range spec["env"].(map[string]any) {
		s.Env[k] = v.(string)
	}
	for k, v := range spec["files"].(map[string]any) {
		s.Files[k] = v.(string)
	}
	defer func(old string) { systemFile = old }(systemFile)
	systemFile = filepath.Join(t.TempDir(), "none")
	root, opts := setUp(t, s)
	opts.CLI = nil // ansible-playbook's
	c, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("testdata/lookups.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Results  []lookupRecord `json:"results"`
		Warnings []string       `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(text), "@ROOT@", root)), &rec); err != nil {
		t.Fatal(err)
	}
	cases := spec["cases"].([]any)
	if len(cases) != len(rec.Results) {
		t.Fatalf("lookups.yaml has %d cases, lookups.json %d: rerun testdata/gen.py", len(cases), len(rec.Results))
	}
	var warnings []string
	host := spec["hostvars"].(map[string]any)
	base := &expr.Vars{Layers: []map[string]any{host, {"inventory_hostname": "localhost"}}}
	for i, cs := range cases {
		m, ok := cs.(map[string]any)
		if !ok {
			m = map[string]any{"e": cs}
		}
		want := rec.Results[i]
		if m["e"] != want.E {
			t.Fatalf("case %d: lookups.yaml has %q, lookups.json %q: rerun testdata/gen.py", i, m["e"], want.E)
		}
		scope := base
		if v, ok := m["vars"].(map[string]any); ok {
			scope = base.With(v)
		}
		scope.Env = &expr.Env{Config: c.ForTask(func() string { return "" }, scope.Lookup),
			Warn: func(msg string) { warnings = append(warnings, msg) }}
		got, err := eval(want.E, scope)
		if _, refused := m["tender"]; refused {
			var ee *expr.Error
			if !errors.As(err, &ee) || !strings.Contains(ee.Msg, "tender cannot give") {
				t.Errorf("%s: tender should refuse it (a deliberate difference), got %v, %v", want.E, got, err)
			}
			continue
		}
		checkLookupCase(t, want, got, err)
	}
	if !reflect.DeepEqual(warnings, rec.Warnings) {
		t.Errorf("warnings: got %q, ansible-playbook printed %q", warnings, rec.Warnings)
	}
}

func eval(src string, scope expr.Scope) (any, error) {
	e, err := expr.Parse(src)
	if err != nil {
		return nil, err
	}
	return e.Eval(scope)
}

// unhandledPrefix starts Ansible's report of an exception a lookup did
// not handle; tender words that report its own way, with the same
// message inside.
const unhandledPrefix = "An unhandled exception occurred while running the lookup plugin 'config'. Error was a <class 'ansible.errors.AnsibleError'>, original message: "

func checkLookupCase(t *testing.T, want lookupRecord, got any, err error) {
	t.Helper()
	if want.Error != nil {
		var ee *expr.Error
		if !errors.As(err, &ee) {
			t.Errorf("%s: ansible failed (%s), tender gave %#v, %v", want.E, *want.Error, got, err)
			return
		}
		if inner, ok := strings.CutPrefix(*want.Error, unhandledPrefix); ok {
			inner = inner[:len(inner)/2-1] // the message, then ". " and the message again
			if !strings.Contains(ee.Msg, inner) {
				t.Errorf("%s: tender's error %q does not hold Ansible's %q", want.E, ee.Msg, inner)
			}
			return
		}
		if ee.Msg != *want.Error {
			t.Errorf("%s:\ntender:  %s\nansible: %s", want.E, ee.Msg, *want.Error)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: tender failed: %v", want.E, err)
		return
	}
	var w any
	d := json.NewDecoder(strings.NewReader(want.JSON))
	d.UseNumber()
	if err := d.Decode(&w); err != nil {
		t.Fatal(err)
	}
	if typ := pyfmt.TypeName(got); typ != want.Type || pyJSON(got) != pyJSON(w) {
		t.Errorf("%s = %s (%s), ansible says %s (%s)", want.E, pyfmt.Repr(got), typ, want.JSON, want.Type)
	}
}
