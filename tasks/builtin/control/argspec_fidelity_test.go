package control

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/pyfmt"
	"github.com/tender-sh/tender/internal/yaml11"
	"github.com/tender-sh/tender/tasks"
	"github.com/tender-sh/tender/tasks/builtin/internal/modtest"
)

// argSpecCase is one case of testdata/argspec/cases.yaml.
type argSpecCase struct {
	name         string
	fields       map[string]any
	tenderMsg    string
	tenderErrors []any
}

func loadArgSpecCases(t *testing.T) []argSpecCase {
	t.Helper()
	b, err := os.ReadFile("../testdata/argspec/cases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	v, err := yaml11.Value(doc.Content[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []argSpecCase
	for _, c := range v.([]any) {
		m := c.(map[string]any)
		tc := argSpecCase{name: m["name"].(string), fields: m}
		tc.tenderMsg, _ = m["tender_msg"].(string)
		tc.tenderErrors, _ = m["tender_errors"].([]any)
		out = append(out, tc)
	}
	return out
}

// taskArgs are the arguments gen.py gives the case's task.
func (c argSpecCase) taskArgs() tasks.Args {
	if a, ok := c.fields["args"].(map[string]any); ok {
		return tasks.Args(a)
	}
	args := tasks.Args{"argument_spec": c.fields["argument_spec"]}
	if p, ok := c.fields["provided_arguments"]; ok {
		args["provided_arguments"] = p
	}
	if ctx, ok := c.fields["context"]; ok {
		args["validate_args_context"] = ctx
	}
	return args
}

// normJSON makes a value comparable with one decoded from Python's JSON
// (with UseNumber): numbers as Python prints them.
func normJSON(v any) any {
	switch x := v.(type) {
	case int:
		return json.Number(strconv.Itoa(x))
	case float64:
		return json.Number(pyfmt.Float(x))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normJSON(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normJSON(e)
		}
		return out
	}
	return v
}

// normBooleans sorts the list of booleans in a message: ansible-core
// prints a set, in an order that changes between Python processes.
func normBooleans(s string) string {
	const marker = "Valid booleans include: "
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if head, list, ok := strings.Cut(l, marker); ok {
			items := strings.Split(list, ", ")
			sort.Strings(items)
			lines[i] = head + marker + strings.Join(items, ", ")
		}
	}
	return strings.Join(lines, "\n")
}

func normMessages(v any) any {
	l, _ := v.([]any)
	out := make([]any, len(l))
	for i, e := range l {
		s, _ := e.(string)
		out[i] = normBooleans(s)
	}
	return out
}

// TestArgSpecFidelity runs the cases ansible-core 2.14's
// validate_argument_spec ran (gen.py) through tender's and compares the
// results, and the validated values through checkArgSpec.
func TestArgSpecFidelity(t *testing.T) {
	t.Setenv("HOME", "/tender-argspec-home")
	t.Setenv("TENDER_ARGSPEC_DIR", "/opt/tender-argspec")
	t.Setenv("TENDER_ARGSPEC_UNSET", "")
	os.Unsetenv("TENDER_ARGSPEC_UNSET")
	b, err := os.ReadFile("../testdata/argspec/results.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var recorded map[string]struct {
		Result    map[string]any
		Validated any
	}
	if err := dec.Decode(&recorded); err != nil {
		t.Fatal(err)
	}
	cases := loadArgSpecCases(t)
	if len(cases) != len(recorded) {
		t.Fatalf("%d cases, %d recorded: run gen.py", len(cases), len(recorded))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, ok := recorded[c.name]
			if !ok {
				t.Fatal("not recorded: run gen.py")
			}
			vars, _ := c.fields["vars"].(map[string]any)
			env, _ := modtest.TestEnv(t, t.TempDir(), vars)
			res, err := validateArgumentSpecModule{}.Run(context.Background(), env, c.taskArgs())
			msg, failed := res.Msg, res.Failed
			if err != nil {
				msg, failed = err.Error(), true
			}
			want := rec.Result
			wantMsg, _ := want["msg"].(string)
			wantErrors := want["argument_errors"]
			if c.tenderErrors != nil {
				wantErrors = c.tenderErrors
				var lines []string
				for _, e := range c.tenderErrors {
					lines = append(lines, e.(string))
				}
				wantMsg = "Validation of arguments failed:\n" + strings.Join(lines, "\n")
			}
			if want["exception"] == true || c.tenderMsg != "" {
				if c.tenderMsg == "" {
					t.Fatalf("ansible-core failed with an exception (%s): the case needs tender_msg", wantMsg)
				}
				if !failed || msg != c.tenderMsg {
					t.Fatalf("want failure %q\n got failed=%v %q", c.tenderMsg, failed, msg)
				}
				return
			}
			if wantFailed, _ := want["failed"].(bool); failed != wantFailed {
				t.Errorf("failed=%v, ansible-core %v (%s)", failed, wantFailed, msg)
			}
			if normBooleans(msg) != normBooleans(wantMsg) {
				t.Errorf("msg\n got %q\nwant %q", msg, wantMsg)
			}
			if err != nil {
				return
			}
			if got := normMessages(res.Data["argument_errors"]); !reflect.DeepEqual(got, normMessages(wantErrors)) {
				t.Errorf("argument_errors\n got %q\nwant %q", got, normMessages(wantErrors))
			}
			var gotKeys, wantKeys []string
			for k := range res.Data {
				gotKeys = append(gotKeys, k)
			}
			for k := range want {
				if k != "changed" && k != "failed" && k != "msg" {
					wantKeys = append(wantKeys, k)
				}
			}
			sort.Strings(gotKeys)
			sort.Strings(wantKeys)
			if !reflect.DeepEqual(gotKeys, wantKeys) {
				t.Errorf("result keys %v, ansible-core's %v (besides changed, failed, msg)", gotKeys, wantKeys)
			}
			for _, k := range []string{"validate_args_context", "argument_spec_data"} {
				if got := normJSON(res.Data[k]); !reflect.DeepEqual(got, normJSON(want[k])) {
					t.Errorf("%s: got %#v, want %#v", k, got, want[k])
				}
			}
			spec, _ := c.fields["argument_spec"].(map[string]any)
			params := map[string]any{}
			for k, v := range vars {
				if _, ok := spec[k]; ok {
					params[k] = v
				}
			}
			provided, _ := c.fields["provided_arguments"].(map[string]any)
			for k, v := range provided {
				params[k] = v
			}
			validated, _, err := checkArgSpec(spec, params)
			if err != nil {
				t.Fatal(err)
			}
			if got := normJSON(validated); !reflect.DeepEqual(got, rec.Validated) {
				t.Errorf("validated\n got %#v\nwant %#v", got, rec.Validated)
			}
		})
	}
}
