package expr

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tender-sh/tender/internal/yaml11"
	"go.yaml.in/yaml/v3"
)

// The case table (testdata/cases.yaml) and what ansible-core answered for
// each case (testdata/expected.json, recorded by testdata/gen.py).

type recorded struct {
	ID    int    `json:"id"`
	E     string `json:"e"`
	T     string `json:"t"`
	W     string `json:"w"`
	Type  string `json:"type"`
	JSON  string `json:"json"`
	Value any    `json:"value"`
	Error *string
}

func (r *recorded) UnmarshalJSON(b []byte) error {
	type plain recorded
	var p struct {
		plain
		Error *string `json:"error"`
	}
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&p); err != nil {
		return err
	}
	*r = recorded(p.plain)
	r.Error = p.Error
	var err error
	r.Value, err = fromJSON(r.Value)
	return err
}

func loadYAML11(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		t.Fatal(err)
	}
	v, err := yaml11.Value(n.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

// strictEqual is Equal that also tells int, float and bool apart.
func strictEqual(a, b any) bool {
	if storedType(a) != storedType(b) {
		return false
	}
	switch x := a.(type) {
	case []any:
		y := b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !strictEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y := b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !strictEqual(v, w) {
				return false
			}
		}
		return true
	}
	return Equal(a, b)
}

func testEnv(t *testing.T) (*Env, string) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TENDER_TEST_ENV": "hello", "TENDER_TEST_ENV2": "world", "HOME": "/home/tender"}
	return &Env{
		SearchPaths:   []string{dir},
		BaseDir:       dir,
		AllowCommands: true,
		Getenv: func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		},
	}, dir
}

func TestCasesAgainstAnsible(t *testing.T) {
	checkCases(t, "testdata/cases.yaml", "testdata/expected.json")
}

// checkCases evaluates every case of a case table (casesPath) and compares
// tender's answer with what ansible-core answered (expectedPath, recorded
// by testdata/gen.py).
func checkCases(t *testing.T, casesPath, expectedPath string) {
	table := loadYAML11(t, casesPath)
	raw, err := os.ReadFile(expectedPath)
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		Ansible string     `json:"ansible"`
		Results []recorded `json:"results"`
	}
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	cases := table["cases"].([]any)
	if len(cases) != len(exp.Results) {
		t.Fatalf("%s has %d cases, %s %d: rerun testdata/gen.py", casesPath, len(cases), expectedPath, len(exp.Results))
	}
	env, dir := testEnv(t)
	env.Native = table["jinja2_native"] == true
	magic, _ := table["tender_vars"].(map[string]any)
	if magic == nil {
		magic = map[string]any{"inventory_hostname": "localhost"}
	}
	magic["playbook_dir"] = dir
	common, _ := table["common"].(map[string]any)
	if common == nil {
		common = map[string]any{}
	}
	base := &Vars{Layers: []map[string]any{common, magic}, Env: env}
	counts := map[string]int{}
	for i, c := range cases {
		m, ok := c.(map[string]any)
		if !ok {
			m = map[string]any{"e": c}
		}
		want := exp.Results[i]
		src, _ := m["e"].(string)
		isExpr := src != ""
		when, isWhen := m["w"].(string)
		switch {
		case isWhen:
			src = when
		case !isExpr:
			src = m["t"].(string)
		}
		if want.E+want.T+want.W != src {
			t.Fatalf("case %d: %s has %q, %s %q: rerun testdata/gen.py", i, casesPath, src, expectedPath, want.E+want.T+want.W)
		}
		scope := base
		if v, ok := m["vars"].(map[string]any); ok {
			scope = base.With(v)
		}
		tmpl := src
		if isExpr {
			// evaluated exactly as gen.py had Ansible evaluate it
			tmpl = "{{ (" + src + ") }}"
		}
		var got any
		var err error
		if isWhen {
			got, err = Condition(src, scope)
		} else {
			if isExpr {
				var tp *Template
				if tp, err = ParseTemplate(tmpl); err == nil {
					got, err = tp.native(scope)
				}
			} else {
				got, err = Render(tmpl, scope)
			}
		}
		name := "case " + strconv.Itoa(i) + " " + strconv.Quote(src)
		if ov, ok := m["tender"].(map[string]any); ok {
			counts["deliberate difference"]++
			if _, wantErr := ov["error"]; wantErr {
				if err == nil {
					t.Errorf("%s: tender should fail (deliberate difference), got %s", name, Repr(got))
				}
				continue
			}
			if err != nil || !strictEqual(got, ov["value"]) {
				t.Errorf("%s: tender should give %s (deliberate difference), got %s, %v", name, Repr(ov["value"]), Repr(got), err)
			}
			continue
		}
		if want.Error != nil {
			counts["error"]++
			if err == nil {
				t.Errorf("%s: ansible failed (%.120s), tender gave %s (%s)", name, *want.Error, Repr(got), typeName(got))
			} else if m["msg"] == true && !strings.Contains(*want.Error, Message(err)) {
				// msg: true, the error text is Ansible's (playbooks check it).
				t.Errorf("%s: ansible failed with %q, tender with %q", name, *want.Error, Message(err))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: tender failed: %v", name, err)
			continue
		}
		if isExpr {
			counts["expression"]++
			js, err := toJSON(got, -1)
			if err != nil {
				t.Errorf("%s: to_json: %v", name, err)
				continue
			}
			wantV, err := applyFilter(env, "from_json", false, want.JSON, nil, nil)
			if err != nil {
				t.Fatalf("%s: recorded json %q: %v", name, want.JSON, err)
			}
			gotV, err := fromJSON(mustJSON(t, js))
			// The recorded type is the value's once stored, as a
			// string-type filter's text is then a str.
			if err != nil || storedType(got) != want.Type || !strictEqual(gotV, wantV) {
				t.Errorf("%s: ansible %s (%s), tender %s (%s)", name, want.JSON, want.Type, js, storedType(got))
			}
			continue
		}
		if isWhen {
			counts["when"]++
		} else {
			counts["template"]++
		}
		if strictEqual(got, want.Value) {
			continue
		}
		if ws, ok := want.Value.(string); ok && Str(got) == ws {
			counts["template, native type kept"]++
			continue
		}
		t.Errorf("%s: ansible %s, tender %s", name, Repr(want.Value), Repr(got))
	}
	t.Logf("%d cases against %s: %v", len(cases), exp.Ansible, counts)
}

func mustJSON(t *testing.T, s string) any {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("tender's to_json %q does not parse: %v", s, err)
	}
	return v
}

// storedType is the Python type of v once Ansible has stored it: a
// string-type filter's text (NativeJinjaText) is then plain text.
func storedType(v any) string {
	switch x := v.(type) {
	case nativeText:
		return typeName(string(x))
	case nativeUnsafe, yaml11.Unsafe:
		// gen.py records every str class as str (its STR_TYPES).
		return "str"
	}
	return typeName(v)
}

// TestNativeCasesAgainstAnsible: templates under jinja2_native, as
// ansible-core renders them (testdata/native).
func TestNativeCasesAgainstAnsible(t *testing.T) {
	checkCases(t, "testdata/native/cases.yaml", "testdata/native/cases.json")
}
