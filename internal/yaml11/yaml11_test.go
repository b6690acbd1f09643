package yaml11

import (
	"errors"
	"math"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/tender-sh/tender/internal/pydict"
)

func decode(t *testing.T, src string) any {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	v, err := Value(&n)
	if err != nil {
		t.Fatalf("Value(%q): %v", src, err)
	}
	return v
}

func TestScalarYAML11(t *testing.T) {
	cases := []struct {
		in   string
		want any
	}{
		{"yes", true}, {"No", false}, {"on", true}, {"OFF", false}, {"True", true}, {"false", false},
		{"y", "y"}, {"n", "n"}, {"~", nil}, {"null", nil}, {"", nil},
		{"0755", 493}, {"0o755", "0o755"}, {"08", "08"}, {"0x1F", 31}, {"0b101", 5}, {"-12", -12},
		{"1_000", 1000}, {"1:30", 90}, {"1.5", 1.5}, {"1.", 1.0}, {"1e5", "1e5"}, {"1.0e+3", 1000.0},
		{".5", 0.5}, {"-.inf", math.Inf(-1)}, {"2.0.1", "2.0.1"}, {"7", 7}, {"0", 0},
		{"hello", "hello"}, {"2001-12-14", "2001-12-14"},
	}
	for _, c := range cases {
		if got := Scalar(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Scalar(%q) = %#v, want %#v", c.in, got, c.want)
		}
	}
	if v, ok := Scalar(".nan").(float64); !ok || !math.IsNaN(v) {
		t.Errorf("Scalar(.nan) = %#v", Scalar(".nan"))
	}
}

func TestValueDocument(t *testing.T) {
	got := decode(t, `
a: yes
b: "yes"
c: 'on'
d: !!str 0755
e: 0755
f: !unsafe "{{ x }}"
g: [1, two, 3.0, ~]
h: |
  literal yes
base: &base {x: 1, y: 2}
merged:
  <<: *base
  y: 3
yes: key
`)
	want := map[string]any{
		"a": true, "b": "yes", "c": "on", "d": "0755", "e": 493,
		"f": Unsafe("{{ x }}"), "g": []any{1, "two", 3.0, nil}, "h": "literal yes\n",
		"base":   map[string]any{"x": 1, "y": 2},
		"merged": map[string]any{"x": 1, "y": 3},
		"True":   "key",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

// TestUnsafeContainers: !unsafe on a list or mapping marks its strings
// and, as Ansible's loader leaves them, empties the containers inside it.
func TestUnsafeContainers(t *testing.T) {
	got := decode(t, "l: !unsafe ['{{ x }}', 2, {k: v}, [1]]\nm: !unsafe {a: '{{ y }}', n: [z], o: {p: q}}\n")
	want := map[string]any{
		"l": []any{Unsafe("{{ x }}"), 2, map[string]any{}, []any{}},
		"m": map[string]any{"a": Unsafe("{{ y }}"), "n": []any{}, "o": map[string]any{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func TestValueErrors(t *testing.T) {
	for src, msg := range map[string]string{
		"a: !!int abc\n":    `1:4: "abc" is not an integer`,
		"a: !vault xyz\n":   "1:4: a vault-encrypted value, but no vault secret was given",
		"? [1, 2]\n: x\n":   "a mapping key must be a scalar",
		"a: !whatever 1\n":  "unknown YAML tag !whatever",
		"a: {<<: 5}\n":      "merge key << needs a mapping",
		"a: !!bool maybe\n": `"maybe" is not a boolean`,
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatalf("yaml: %v", err)
		}
		_, err := Value(&n)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Value(%q) error = %v, want it to contain %q", src, err, msg)
		}
	}
}

// TestAliasBomb: a "billion laughs" document (9^10 leaves if expanded) is
// refused at the alias that crosses the budget, at once; nested aliases
// that stay below it convert, every alias of an anchor sharing one value.
func TestAliasBomb(t *testing.T) {
	bomb := func(levels int) string {
		src := "a: &a [x, x, x, x, x, x, x, x, x]\n"
		prev := "a"
		for i := 0; i < levels; i++ {
			name := string(rune('b' + i))
			src += name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 8) + "*" + prev + "]\n"
			prev = name
		}
		return src
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(bomb(9)), &n); err != nil {
		t.Fatal(err)
	}
	_, err := Value(&n)
	var ye *Error
	if !errors.As(err, &ye) || !strings.Contains(ye.Msg, "aliases expand to more than") || ye.Line < 2 {
		t.Fatalf("err = %v, want the alias budget's error at a line", err)
	}
	if err := yaml.Unmarshal([]byte(bomb(4)), &n); err != nil {
		t.Fatal(err)
	}
	v, err := Value(&n)
	if err != nil {
		t.Fatal(err)
	}
	e := v.(map[string]any)["e"].([]any)
	if len(e) != 9 || len(e[0].([]any)) != 9 {
		t.Fatalf("e = %d lists of %d", len(e), len(e[0].([]any)))
	}
}

// Mappings keep the order of their keys, merges placed as PyYAML places
// them (recorded from ansible-core's loader: y, x, z, c, a; y=2, z=9).
func TestMappingOrder(t *testing.T) {
	src := "base: &b {z: 1, y: 2}\nother: &o {y: 20, x: 30}\nm:\n  c: 1\n  <<: [*b, *o]\n  a: 2\n  z: 9\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	v, err := Value(&doc)
	if err != nil {
		t.Fatal(err)
	}
	root := v.(map[string]any)
	if got := pydict.Keys(root); !reflect.DeepEqual(got, []string{"base", "other", "m"}) {
		t.Fatalf("top keys = %v", got)
	}
	m := root["m"].(map[string]any)
	if got, want := pydict.Keys(m), []string{"y", "x", "z", "c", "a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("keys = %v, want %v", got, want)
	}
	if m["y"] != 2 || m["z"] != 9 {
		t.Fatalf("values = %v, want y=2 z=9", m)
	}
}

func TestCopy(t *testing.T) {
	orig := map[string]any{"l": []any{1, map[string]any{"k": "v"}}, "s": "x"}
	c := Copy(orig).(map[string]any)
	c["l"].([]any)[1].(map[string]any)["k"] = "changed"
	c["s"] = "y"
	if orig["l"].([]any)[1].(map[string]any)["k"] != "v" || orig["s"] != "x" {
		t.Errorf("changing the copy changed the original: %v", orig)
	}
}

// Integers are PyYAML's: exact past 64 bits (a *big.Int, never one an int
// could hold), refused past MaxIntDigits digits.
func TestScalarBigInt(t *testing.T) {
	for in, want := range map[string]string{
		"18446744073709551616":          "18446744073709551616",
		"-9223372036854775809":          "-9223372036854775809",
		"-0x10000000000000000":          "-18446744073709551616",
		"0b1" + strings.Repeat("0", 64): "18446744073709551616",
		"02000000000000000000000":       "18446744073709551616",
		"1_000_000_000_000_000_000_000": "1000000000000000000000",
		"1" + strings.Repeat(":0", 11):  "36279705600000000000",
	} {
		b, ok := Scalar(in).(*big.Int)
		if !ok || b.String() != want {
			t.Errorf("Scalar(%q) = %#v, want the integer %s", in, Scalar(in), want)
		}
	}
	for in, want := range map[string]int{"9223372036854775807": math.MaxInt, "-9223372036854775808": math.MinInt, "-0x8000000000000000": math.MinInt} {
		if got := Scalar(in); got != want {
			t.Errorf("Scalar(%q) = %#v, want the int %d", in, got, want)
		}
	}
	long := strings.Repeat("9", MaxIntDigits+1)
	if got := Scalar(long); got != long {
		t.Errorf("Scalar of %d digits = %T, want the text", len(long), got)
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("x: "+long+"\n"), &n); err != nil {
		t.Fatal(err)
	}
	if _, err := Value(&n); err == nil || !strings.Contains(err.Error(), "exceeds the limit") {
		t.Errorf("a %d-digit integer in a document: err = %v", len(long), err)
	}
	if got := decode(t, "!!float 18446744073709551617"); got != 18446744073709551616.0 {
		t.Errorf("!!float of a big integer = %#v", got)
	}
}
