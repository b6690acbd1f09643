package yaml11

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func dups(t *testing.T, src string) []DuplicateKey {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	return DuplicateKeys([]byte(src), &n)
}

// The order and positions were recorded from ansible-playbook 2.14: the
// mapping's start, mappings level by level, merged keys overridden by the
// mapping's own counted as duplicates.
func TestDuplicateKeys(t *testing.T) {
	src := `- hosts: localhost
  vars:
    base: &b {a: 1, b: 2}
    over:
      <<: *b
      a: 3
    "1": x
    1: y
    nest:
      - {k: 1, k: 2}
  tasks:
    - name: one
      name: two
`
	got := dups(t, src)
	want := []DuplicateKey{{5, 7, "a"}, {12, 7, "name"}, {10, 9, "k"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("duplicate %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if msg := got[0].Message("/p/pb.yml"); msg != "While constructing a mapping from /p/pb.yml, line 5, column 7, found a duplicate dict key (a). Using last defined value only." {
		t.Errorf("message: %s", msg)
	}
}

func TestDuplicateKeysPythonEquality(t *testing.T) {
	for src, n := range map[string]int{
		"1: a\ntrue: b\n":                    1, // True == 1
		"1: a\n1.0: b\n":                     1,
		"'1': a\n1: b\n":                     0,
		"~: a\nnull: b\n":                    1,
		"a: 1\nb: 2\n":                       0,
		"<<: [{x: 1}, {x: 2}]\n":             1, // two merge sources give x
		".nan: 1\n.nan: 2\n":                 0, // NaN equals nothing
		"a: &x {k: 1, k: 2}\nb: *x\nc: *x\n": 1, // an anchor is read once
	} {
		if got := dups(t, src); len(got) != n {
			t.Errorf("%q: %d duplicates %v, want %d", src, len(got), got, n)
		}
	}
	if got := dups(t, `{"a": 1, "a": 2}`); len(got) != 0 {
		t.Errorf("JSON is read as JSON, without a warning: %v", got)
	}
}

func TestDecoderDuplicatePolicy(t *testing.T) {
	src := []byte("x: 1\nx: 2\n")
	var warned []string
	d := NewDecoder()
	d.Warn = func(m string) { warned = append(warned, m) }
	m, err := d.Vars(src, "/v.yml")
	if err != nil || m["x"] != 2 || len(warned) != 1 || !strings.Contains(warned[0], "duplicate dict key (x)") {
		t.Fatalf("warn: %v %v %v", m, err, warned)
	}
	d = NewDecoder()
	d.Duplicates = DuplicatesError
	_, err = d.VarsList(src, "/v.yml")
	var ye *Error
	if !errors.As(err, &ye) || ye.Line != 1 || ye.Col != 1 || !strings.Contains(err.Error(), "found a duplicate dict key (x)") {
		t.Fatalf("error: %v", err)
	}
	warned = nil
	d = NewDecoder()
	d.Duplicates = DuplicatesIgnore
	d.Warn = func(m string) { warned = append(warned, m) }
	if _, err := d.Vars(src, "/v.yml"); err != nil || len(warned) != 0 {
		t.Fatalf("ignore: %v %v", err, warned)
	}
	for s, want := range map[string]DuplicatePolicy{"warn": DuplicatesWarn, "error": DuplicatesError, "ignore": DuplicatesIgnore} {
		if p, err := ParseDuplicatePolicy(s); err != nil || p != want {
			t.Errorf("%s: %v %v", s, p, err)
		}
	}
	if _, err := ParseDuplicatePolicy("loud"); err == nil {
		t.Error("an unknown policy must be refused")
	}
}
